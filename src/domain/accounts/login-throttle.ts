import type { EntityManager } from '@mikro-orm/postgresql';
import {
  addFailure,
  clearFailures,
  currentFailures,
  purgeEndedWindows,
} from '../../db/sql/login-throttle';

/** Failed sign-ins allowed per window, per client address and per e-mail address. */
export type LoginLimits = { windowSeconds: number; perAddress: number; perEmail: number };

export const LOGIN_LIMITS: LoginLimits = { windowSeconds: 15 * 60, perAddress: 50, perEmail: 10 };

/** The throttle keys of one attempt: the client's address (when known) and the e-mail. */
export function throttleKeys(email: string, address: string | null) {
  const emailKey = `email:${email.trim().toLowerCase()}`;
  return { emailKey, all: address ? [`ip:${address}`, emailKey] : [emailKey] };
}

/**
 * Seconds until a sign-in may be tried again, 0 when it may now: the counts live in
 * PostgreSQL (login_throttle), so every `serve` process sees the same ones.
 */
export async function loginRetryAfter(
  em: EntityManager,
  keys: readonly string[],
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<number> {
  const rows = await currentFailures(em, keys, limits.windowSeconds);
  let wait = 0;
  for (const row of rows) {
    const limit = row.key.startsWith('ip:') ? limits.perAddress : limits.perEmail;
    if (row.failures >= limit) wait = Math.max(wait, row.retry_after_s);
  }
  return wait;
}

export async function recordLoginFailure(
  em: EntityManager,
  keys: readonly string[],
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<void> {
  await addFailure(em, keys, limits.windowSeconds);
  await purgeEndedWindows(em, limits.windowSeconds);
}

/** A successful sign-in forgets the e-mail's failures (the address's count stays). */
export async function clearLoginFailures(em: EntityManager, emailKey: string): Promise<void> {
  await clearFailures(em, emailKey);
}
