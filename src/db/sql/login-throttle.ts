import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** One `?` a key: a handful of keys, bound one by one (knex would expand an array binding). */
const placeholders = (keys: readonly string[]) => keys.map(() => '?').join(', ');

export type ThrottleRow = { key: string; failures: number; retry_after_s: number };

/**
 * Counts one attempt for each key and returns every key's count in its window with the
 * seconds until that window ends: one statement, so parallel attempts each see their own
 * count and none can slip in between a read and a write. A key whose window has ended
 * starts a new one.
 */
export function countAttempt(
  em: EntityManager,
  keys: readonly string[],
  windowSeconds: number,
): Promise<ThrottleRow[]> {
  const live = 'login_throttle.window_started_at > now() - make_interval(secs => ?)';
  return selectRows<ThrottleRow>(
    em,
    `insert into login_throttle as login_throttle (key, window_started_at, failures)
       values ${keys.map(() => '(?, now(), 1)').join(', ')}
     on conflict (key) do update set
       failures = case when ${live} then login_throttle.failures + 1 else 1 end,
       window_started_at = case when ${live} then login_throttle.window_started_at else now() end
     returning key, failures,
       greatest(1, ceil(extract(epoch from window_started_at
         + make_interval(secs => ?) - now())))::int as retry_after_s`,
    [...keys, windowSeconds, windowSeconds, windowSeconds],
  );
}

/** Takes back one counted attempt of each key (it turned out not to be a failure). */
export async function uncountAttempt(em: EntityManager, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await runStatement(
    em,
    `update login_throttle set failures = greatest(0, failures - 1)
     where key in (${placeholders(keys)})`,
    [...keys],
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
