import type { Orm } from '../src/db/orm';
import { nextRecoveryPage, recordRecoveryProgress } from '../src/plugins/manage/recovery';
import type { RecoveryActivities } from '../workflows/activity-contracts';

/** The recovery workflow's database steps (docs/recovery.md): its candidates and its progress. */
export function createRecoveryActivities(orm: Orm): RecoveryActivities {
  return {
    recoveryPage(input) {
      return nextRecoveryPage(orm.em.fork(), input.recoveryId, input.after, input.limit);
    },
    recordRecoveryProgress({ recoveryId, ...progress }) {
      return recordRecoveryProgress(orm.em.fork(), recoveryId, progress);
    },
  };
}
