import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type ThrottleRow = { key: string; failures: number; retry_after_s: number };

/**
 * Counts one attempt for each key and returns every key's count in its window with the
 * seconds until that window ends: one statement, so parallel attempts each see their own
 * count and none can slip in between a read and a write. A key whose window has ended
 * starts a new one. Rows are locked in the order of `keys`; every caller gives them in the
 * same order (client, then e-mail) and the other statements lock one row each, so no cycle.
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

/**
 * Takes back one counted attempt of each key (it turned out not to be a failure). One key a
 * statement: a statement that locked two rows in its own order would deadlock with
 * countAttempt locking them in the order given.
 */
export async function uncountAttempt(em: EntityManager, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    await runStatement(
      em,
      'update login_throttle set failures = greatest(0, failures - 1) where key = ?',
      [key],
    );
  }
}

export async function clearFailures(em: EntityManager, key: string): Promise<void> {
  await runStatement(em, 'delete from login_throttle where key = ?', [key]);
}

/**
 * Drops the counts of windows that have ended. Rows another attempt holds are skipped (the
 * next purge takes them), so the purge never waits on, or deadlocks with, a count.
 */
export async function purgeEndedWindows(em: EntityManager, windowSeconds: number): Promise<void> {
  await runStatement(
    em,
    `delete from login_throttle where key in (
       select key from login_throttle
       where window_started_at <= now() - make_interval(secs => ?)
       for update skip locked)`,
    [windowSeconds],
  );
}
