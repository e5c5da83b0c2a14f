import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** One `?` a key: a handful of keys, bound one by one (knex would expand an array binding). */
const placeholders = (keys: readonly string[]) => keys.map(() => '?').join(', ');

export type ThrottleRow = { key: string; failures: number; retry_after_s: number };

/** The keys' failure counts in their current window and the seconds until it ends. */
export function currentFailures(
  em: EntityManager,
  keys: readonly string[],
  windowSeconds: number,
): Promise<ThrottleRow[]> {
  return selectRows<ThrottleRow>(
    em,
    `select key, failures,
       greatest(1, ceil(extract(epoch from window_started_at
         + make_interval(secs => ?) - now())))::int as retry_after_s
     from login_throttle
     where key in (${placeholders(keys)}) and window_started_at > now() - make_interval(secs => ?)`,
    [windowSeconds, ...keys, windowSeconds],
  );
}

/** Counts one failure for each key, starting a new window where the last one ended. */
export async function addFailure(
  em: EntityManager,
  keys: readonly string[],
  windowSeconds: number,
): Promise<void> {
  await runStatement(
    em,
    `insert into login_throttle (key, window_started_at, failures)
       values ${keys.map(() => '(?, now(), 1)').join(', ')}
     on conflict (key) do update set
       failures = case when login_throttle.window_started_at > now() - make_interval(secs => ?)
         then login_throttle.failures + 1 else 1 end,
       window_started_at = case when login_throttle.window_started_at > now() - make_interval(secs => ?)
         then login_throttle.window_started_at else now() end`,
    [...keys, windowSeconds, windowSeconds],
  );
}

export async function clearFailures(em: EntityManager, key: string): Promise<void> {
  await runStatement(em, 'delete from login_throttle where key = ?', [key]);
}

/** Drops the counts of windows that have ended. */
export async function purgeEndedWindows(em: EntityManager, windowSeconds: number): Promise<void> {
  await runStatement(
    em,
    'delete from login_throttle where window_started_at <= now() - make_interval(secs => ?)',
    [windowSeconds],
  );
}
