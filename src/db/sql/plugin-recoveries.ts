import type { EntityManager } from '@mikro-orm/postgresql';
import { CONDITIONS_SKIP_PREFIX } from './delivery-attempts';
import { runStatement, selectRows } from './execute';

export type RecoveryStatus = 'running' | 'completed' | 'failed';

export type RecoveryRow = {
  id: string;
  plugin_id: string;
  form_id: string;
  account_id: string;
  since: Date;
  until: Date;
  total: number;
  done: number;
  failed: number;
  status: RecoveryStatus;
  workflow_id: string | null;
  created_at: Date;
  finished_at: Date | null;
};

/** Where a page of candidates ends: created_at as microsecond text, so no row is skipped. */
export type CandidateCursor = { createdAt: string; id: string };

/** A submission to recover: the failed delivery to repeat and the attempts it already has. */
export type CandidateRow = {
  submission_id: string;
  created_at: string;
  delivery_id: string;
  attempt_offset: number;
};

/** The window of one plugin's recovery: its form and since..until. */
export type CandidateWindow = { pluginId: string; since: Date; until: Date };

/*
 * The candidates of a recovery: the plugin's form's non-spam submissions created in the window
 * whose LAST delivery record for the plugin (test deliveries aside) failed or was skipped. A
 * delivery in progress (`pending_retry`) or one that succeeded since is not a candidate, nor
 * one skipped because the submission did not match the plugin's conditions (not wanted).
 */
const CANDIDATES = `
  from submissions s
  cross join lateral (
    select d.delivery_id, d.status, d.error from delivery_attempts d
     where d.submission_id = s.id and d.plugin_id = ? and not d.is_test
     order by d.started_at desc, d.id desc limit 1
  ) last
  where s.form_id = (select form_id from plugins where id = ?) and not s.is_spam
    and s.created_at >= ? and s.created_at < ? and last.status in ('failed', 'skipped')
    and not (last.status = 'skipped' and starts_with(coalesce(last.error, ''), '${CONDITIONS_SKIP_PREFIX}'))`;

const windowParams = (w: CandidateWindow) => [w.pluginId, w.pluginId, w.since, w.until];

export async function countRecoveryCandidates(
  em: EntityManager,
  window: CandidateWindow,
): Promise<number> {
  const [row] = await selectRows<{ total: string }>(
    em,
    `select count(*) as total ${CANDIDATES}`,
    windowParams(window),
  );
  return Number(row?.total ?? 0);
}

/** One page of candidates, oldest first, after the cursor (keyset on created_at, id). */
export async function selectRecoveryCandidates(
  em: EntityManager,
  window: CandidateWindow,
  after: CandidateCursor | null,
  limit: number,
): Promise<CandidateRow[]> {
  const keyset = after ? 'and (s.created_at, s.id) > (?::timestamptz, ?::bigint)' : '';
  const rows = await selectRows<CandidateRow>(
    em,
    `select s.id::text as submission_id,
            to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
            last.delivery_id,
            (select max(a.attempt) from delivery_attempts a where a.delivery_id = last.delivery_id)
              as attempt_offset
       ${CANDIDATES} ${keyset}
      order by s.created_at, s.id limit ?`,
    [...windowParams(window), ...(after ? [after.createdAt, after.id] : []), limit],
  );
  return rows.map((row) => ({ ...row, attempt_offset: Number(row.attempt_offset) }));
}

/**
 * Records a run; null when it is to be `running` and the plugin already has a running one
 * (the partial unique index plugin_recoveries_one_running: one at a time, whatever races).
 */
export async function insertRecovery(
  em: EntityManager,
  r: {
    pluginId: string;
    accountId: string;
    since: Date;
    until: Date;
    total: number;
    status: RecoveryStatus;
  },
): Promise<string | null> {
  const [row] = await selectRows<{ id: string }>(
    em,
    `insert into plugin_recoveries (plugin_id, account_id, since, until, total, status, finished_at)
     values (?, ?, ?, ?, ?, ?, case when ? = 'running' then null else now() end)
     on conflict (plugin_id) where status = 'running' do nothing
     returning id::text`,
    [r.pluginId, r.accountId, r.since, r.until, r.total, r.status, r.status],
  );
  return row?.id ?? null;
}

const SELECT_RECOVERY = `select r.id::text, r.plugin_id::text, p.form_id::text, r.account_id::text,
    r.since, r.until, r.total, r.done, r.failed, r.status, r.workflow_id, r.created_at, r.finished_at
  from plugin_recoveries r join plugins p on p.id = r.plugin_id`;

type RawRecoveryRow = Omit<RecoveryRow, 'since' | 'until' | 'created_at' | 'finished_at'> & {
  since: string | Date;
  until: string | Date;
  created_at: string | Date;
  finished_at: string | Date | null;
};

/** The driver may hand timestamps over as text: the row's are Dates. */
const withDates = (row: RawRecoveryRow): RecoveryRow => ({
  ...row,
  since: new Date(row.since),
  until: new Date(row.until),
  created_at: new Date(row.created_at),
  finished_at: row.finished_at === null ? null : new Date(row.finished_at),
});

async function selectRecoveries(
  em: EntityManager,
  where: string,
  params: unknown[],
): Promise<RecoveryRow[]> {
  const rows = await selectRows<RawRecoveryRow>(em, `${SELECT_RECOVERY} ${where}`, params);
  return rows.map(withDates);
}

/** A run by id alone, for its workflow's activities. */
export async function findRecoveryById(em: EntityManager, id: string): Promise<RecoveryRow | null> {
  const [row] = await selectRecoveries(em, 'where r.id = ?', [id]);
  return row ?? null;
}

/** A run of one plugin of one account (another account's ids look like missing ones). */
export async function findPluginRecovery(
  em: EntityManager,
  key: { id: string; pluginId: string; accountId: string },
): Promise<RecoveryRow | null> {
  const [row] = await selectRecoveries(
    em,
    'where r.id = ? and r.plugin_id = ? and r.account_id = ?',
    [key.id, key.pluginId, key.accountId],
  );
  return row ?? null;
}

/** The plugin's running run, if one is. */
export async function findRunningRecovery(
  em: EntityManager,
  pluginId: string,
): Promise<RecoveryRow | null> {
  const [row] = await selectRecoveries(em, "where r.plugin_id = ? and r.status = 'running'", [
    pluginId,
  ]);
  return row ?? null;
}

/** The newest runs of a plugin, for the dashboard. */
export function selectPluginRecoveries(
  em: EntityManager,
  pluginId: string,
  limit: number,
): Promise<RecoveryRow[]> {
  return selectRecoveries(
    em,
    'where r.plugin_id = ? order by r.created_at desc, r.id desc limit ?',
    [pluginId, limit],
  );
}

export async function setRecoveryWorkflow(
  em: EntityManager,
  id: string,
  workflowId: string,
): Promise<void> {
  await runStatement(em, 'update plugin_recoveries set workflow_id = ? where id = ?', [
    workflowId,
    id,
  ]);
}

/** Progress so far; a final status also stamps finished_at. Never moves a finished run back. */
export async function updateRecoveryProgress(
  em: EntityManager,
  id: string,
  progress: { done: number; failed: number; status: RecoveryStatus },
): Promise<void> {
  await runStatement(
    em,
    `update plugin_recoveries set done = ?, failed = ?, status = ?,
        finished_at = case when ? = 'running' then null else now() end
      where id = ? and status = 'running'`,
    [progress.done, progress.failed, progress.status, progress.status, id],
  );
}
