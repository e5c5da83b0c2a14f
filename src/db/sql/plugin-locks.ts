import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

// Any constant: the advisory lock namespace of a plugin's header row ("sh").
const LOCK_SHEET_HEADER = 0x7368;

/**
 * Takes the plugin's header lock until the transaction `tx` ends, if no other transaction
 * holds it: false at once otherwise (the caller waits without holding a connection).
 */
export async function tryLockSheetHeader(tx: EntityManager, pluginId: string): Promise<boolean> {
  const [row] = await selectRows<{ locked: boolean }>(
    tx,
    'select pg_try_advisory_xact_lock(?, hashtext(?)) as locked',
    [LOCK_SHEET_HEADER, pluginId],
  );
  return row?.locked === true;
}
