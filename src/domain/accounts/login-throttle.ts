import type { EntityManager } from '@mikro-orm/postgresql';
import {
  clearFailures,
  countAttempt,
  purgeEndedWindows,
  uncountAttempt,
} from '../../db/sql/login-throttle';
import { clientNetwork } from '../net/client-network';

/** Password guesses allowed per window, per client network and per account (e-mail). */
export type LoginLimits = { windowSeconds: number; perAddress: number; perEmail: number };

export const LOGIN_LIMITS: LoginLimits = { windowSeconds: 15 * 60, perAddress: 50, perEmail: 10 };

/**
 * The throttle keys of one password check: the account's e-mail and the client's network
 * (IPv4 address or IPv6 /64, when known). Sign-in and change-password share them, so both
 * doors draw on one budget of guesses.
 */
export type ThrottleKeys = { emailKey: string; clientKey: string | null; all: string[] };

export function throttleKeys(email: string, address: string | null): ThrottleKeys {
  const emailKey = `email:${email.trim().toLowerCase()}`;
  const clientKey = address ? `ip:${clientNetwork(address)}` : null;
  return { emailKey, clientKey, all: clientKey ? [clientKey, emailKey] : [emailKey] };
}

/**
 * Counts a password check BEFORE it runs, as a failure until it succeeds (one atomic upsert
 * a key, in PostgreSQL so every `serve` process shares the counts). Returns the seconds to
 * wait when a key is over its limit, and then the password must not be checked; else 0.
 * However many requests race, at most the limit of them reach the password check. A refused
 * attempt takes its count back: it checked nothing, and the counts stay at the limit.
 */
export async function beginPasswordCheck(
  em: EntityManager,
  keys: ThrottleKeys,
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<number> {
  const rows = await countAttempt(em, keys.all, limits.windowSeconds);
  let wait = 0;
  for (const row of rows) {
    const limit = row.key.startsWith('ip:') ? limits.perAddress : limits.perEmail;
    if (row.failures > limit) wait = Math.max(wait, row.retry_after_s);
  }
  if (wait > 0) await uncountAttempt(em, keys.all);
  return wait;
}

/** The password was right: the account's count starts again, and the client's loses this one. */
export async function passwordCheckSucceeded(em: EntityManager, keys: ThrottleKeys) {
  await clearFailures(em, keys.emailKey);
  if (keys.clientKey) await uncountAttempt(em, [keys.clientKey]);
}

/** A password reset proved the mailbox: the account's guesses so far no longer hold it back. */
export async function forgetAccountFailures(em: EntityManager, email: string): Promise<void> {
  await clearFailures(em, throttleKeys(email, null).emailKey);
}

/** The password was wrong: it stays counted; ended windows are dropped meanwhile. */
export async function passwordCheckFailed(
  em: EntityManager,
  limits: LoginLimits = LOGIN_LIMITS,
): Promise<void> {
  await purgeEndedWindows(em, limits.windowSeconds);
}
