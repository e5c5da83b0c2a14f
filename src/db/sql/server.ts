import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

// Statements about the PostgreSQL server itself rather than a table.

/** Resolves when PostgreSQL answers a trivial query (readiness). */
export async function ping(em: EntityManager): Promise<void> {
  await selectRows(em, 'select 1');
}

/**
 * Takes the transaction-scoped advisory lock `key` if no other session holds it; false when
 * one does. `tx` must be transactional: the lock is released when its transaction ends.
 */
export async function tryAdvisoryTransactionLock(tx: EntityManager, key: number): Promise<boolean> {
  const [row] = await selectRows<{ locked: boolean }>(
    tx,
    'select pg_try_advisory_xact_lock(?) as locked',
    [key],
  );
  return row?.locked === true;
}
