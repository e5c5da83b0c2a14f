import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Orm } from '../../db/orm';
import {
  countAccountContents,
  deleteAccountRows,
  runningRecoveryWorkflows,
  type AccountCounts,
} from '../../db/sql/account-deletion';
import type { FileStore } from '../files/file-store';
import { sweepDeletedObjects } from '../files/object-sweep';
import type { RecoveryStarter } from '../deliveries/recovery-starter';

export type AccountContents = AccountCounts;
export { countAccountContents };

export type AccountDeletionDeps = {
  orm: Orm;
  fileStore: FileStore;
  recoveries: RecoveryStarter;
  logger: Logger;
};

/**
 * Deletes an account and everything in it (docs/teams.md): its rows by cascade, which ends
 * every session acting in it; the users it leaves without any account; the objects of its
 * stored files (queued by the cascade, swept now through the file store, else by the
 * periodic sweep); and its recovery runs' workflows (best effort: a workflow whose rows are
 * gone finds nothing to do). Returns the ids of the users deleted with it.
 */
export async function deleteAccount(
  em: EntityManager,
  deps: AccountDeletionDeps,
  accountId: string,
): Promise<string[]> {
  const workflows = await runningRecoveryWorkflows(em, accountId);
  const deletedUsers = await em.transactional((tx) => deleteAccountRows(tx, accountId));
  for (const workflowId of workflows) {
    await deps.recoveries
      .terminate(workflowId, 'its account was deleted')
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, workflowId }, 'a deleted account’s recovery still runs'),
      );
  }
  await sweepDeletedObjects(deps.orm, deps.fileStore).catch((error: unknown) =>
    deps.logger.warn({ err: error }, 'the deleted account’s files wait for the next sweep'),
  );
  return deletedUsers;
}
