import type { RecoveryStarter } from '../../domain/deliveries/recovery-starter';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plugin } from '../../db/entities';
import {
  countRecoveryCandidates,
  findPluginRecovery,
  findRecoveryById,
  findRunningRecovery,
  insertRecovery,
  selectPluginRecoveries,
  selectRecoveryCandidates,
  setRecoveryWorkflow,
  updateRecoveryProgress,
  type CandidateCursor,
  type RecoveryRow,
  type RecoveryStatus,
} from '../../db/sql/plugin-recoveries';

export type { RecoveryRow, RecoveryStatus, CandidateCursor };

/** How far back a recovery may reach (docs/recovery.md): older failures stay in the log. */
export const RECOVERY_MAX_AGE_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Why `since` cannot be used, or null (the API's and the dashboard's one check). */
export function sinceProblem(since: Date, now: Date): string | null {
  if (Number.isNaN(since.getTime())) return 'must be an ISO 8601 date-time';
  if (since.getTime() > now.getTime()) return 'must not be in the future';
  if (now.getTime() - since.getTime() > RECOVERY_MAX_AGE_DAYS * DAY_MS)
    return `must be at most ${RECOVERY_MAX_AGE_DAYS} days ago`;
  return null;
}

/** A run still without a workflow this long after it was recorded never got one started. */
export const RECOVERY_START_GRACE_MS = 2 * 60 * 1000;

export type RecoveryOutcome =
  | { outcome: 'disabled' }
  | { outcome: 'running'; recovery: RecoveryRow }
  | { outcome: 'unavailable'; error: Error }
  | { outcome: 'started'; recovery: RecoveryRow };

/**
 * Recovers a plugin's failed or skipped deliveries since `since` (docs/recovery.md): counts
 * them, records the run and starts its workflow, which delivers each again under its delivery
 * id. Nothing to recover: the run is recorded as completed and no workflow starts. One run at
 * a time per plugin: while one runs, `running` names it (each run re-sends up to every
 * failed delivery of 90 days, so parallel runs would multiply what a receiver gets).
 */
export async function startRecovery(
  em: EntityManager,
  starter: RecoveryStarter,
  input: { accountId: string; plugin: Plugin; since: Date; now: Date },
): Promise<RecoveryOutcome> {
  const { plugin } = input;
  if (!plugin.enabled) return { outcome: 'disabled' };
  // Twice at most: a run that ended between our insert and our look-up frees the plugin.
  for (let tries = 0; ; tries++) {
    const running = await findRunningRecovery(em, plugin.id);
    if (running && !(await endIfAbandoned(em, starter, running, input.now))) {
      return { outcome: 'running', recovery: running };
    }
    const window = { pluginId: plugin.id, since: input.since, until: input.now };
    const total = await countRecoveryCandidates(em, window);
    const id = await insertRecovery(em, {
      ...window,
      accountId: input.accountId,
      total,
      status: total === 0 ? 'completed' : 'running',
    });
    if (id === null) {
      if (tries === 0) continue;
      const raced = await findRunningRecovery(em, plugin.id);
      if (raced) return { outcome: 'running', recovery: raced };
      throw new Error(`recovery of plugin ${plugin.id}: no run recorded`);
    }
    if (total > 0) {
      try {
        const { workflowId } = await starter.start({
          recoveryId: id,
          pluginId: plugin.id,
          pluginType: plugin.pluginType,
        });
        await setRecoveryWorkflow(em, id, workflowId);
      } catch (error) {
        await updateRecoveryProgress(em, id, { done: 0, failed: 0, status: 'failed' });
        return { outcome: 'unavailable', error: error as Error };
      }
    }
    return { outcome: 'started', recovery: (await findRecoveryById(em, id))! };
  }
}

/**
 * A run recorded as running whose workflow is gone (terminated or reset in the Temporal UI,
 * timed out) or was never started (the process died in between) would hold its plugin
 * forever: it is marked failed, with the progress it had, and true is returned.
 */
async function endIfAbandoned(
  em: EntityManager,
  starter: RecoveryStarter,
  run: RecoveryRow,
  now: Date,
): Promise<boolean> {
  const abandoned = run.workflow_id
    ? (await starter.isRunning(run.workflow_id)) === false
    : now.getTime() - run.created_at.getTime() > RECOVERY_START_GRACE_MS;
  if (!abandoned) return false;
  await updateRecoveryProgress(em, run.id, {
    done: run.done,
    failed: run.failed,
    status: 'failed',
  });
  return true;
}

export function findRecovery(
  em: EntityManager,
  key: { id: string; pluginId: string; accountId: string },
): Promise<RecoveryRow | null> {
  if (!/^\d{1,18}$/.test(key.id)) return Promise.resolve(null);
  return findPluginRecovery(em, key);
}

/** The newest runs of a plugin (the dashboard shows a few). */
export function recentRecoveries(
  em: EntityManager,
  pluginId: string,
  limit = 5,
): Promise<RecoveryRow[]> {
  return selectPluginRecoveries(em, pluginId, limit);
}

/** What the recovery workflow delivers next; `stopped` when the plugin went away meanwhile. */
export type RecoveryPage = {
  stopped: string | null;
  candidates: { submissionId: string; deliveryId: string; attemptOffset: number }[];
  cursor: CandidateCursor | null;
};

/**
 * The next page of a run's candidates after `after`, checked again now: a submission
 * delivered meanwhile (its last delivery succeeded) is no longer one.
 */
export async function nextRecoveryPage(
  em: EntityManager,
  recoveryId: string,
  after: CandidateCursor | null,
  limit: number,
): Promise<RecoveryPage> {
  const run = await findRecoveryById(em, recoveryId);
  if (!run) return { stopped: 'the recovery run no longer exists', candidates: [], cursor: null };
  const plugin = await em.findOne(Plugin, { id: run.plugin_id }, { refresh: true });
  if (!plugin || plugin.deletedAt)
    return { stopped: 'plugin deleted', candidates: [], cursor: null };
  if (!plugin.enabled) return { stopped: 'plugin disabled', candidates: [], cursor: null };
  const window = { pluginId: run.plugin_id, since: run.since, until: run.until };
  const rows = await selectRecoveryCandidates(em, window, after, limit);
  const last = rows.at(-1);
  return {
    stopped: null,
    candidates: rows.map((row) => ({
      submissionId: row.submission_id,
      deliveryId: row.delivery_id,
      attemptOffset: row.attempt_offset,
    })),
    cursor: last ? { createdAt: last.created_at, id: last.submission_id } : after,
  };
}

export function recordRecoveryProgress(
  em: EntityManager,
  recoveryId: string,
  progress: { done: number; failed: number; status: RecoveryStatus },
): Promise<void> {
  return updateRecoveryProgress(em, recoveryId, progress);
}
