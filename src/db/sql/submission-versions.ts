import type { EntityManager } from '@mikro-orm/postgresql';
import type { SpecialFields } from '../entities/submission';
import { runStatement, selectRows } from './execute';

// A submission's versions (docs/manage-links.md): version 1 is the submission as first
// stored, written at its first edit; each edit its submitter made adds the next number.

export type VersionStatus = 'current' | 'superseded' | 'spam';

export type SubmissionVersionRow = {
  version: number;
  payload_json: Record<string, unknown>;
  status: VersionStatus;
  spam_reason: string | null;
  created_at: Date;
};

/** The version a submission shows now: the current one, or 1 when it was never edited. */
export const CURRENT_VERSION_OF = (alias: string) =>
  `coalesce((select max(v.version) from submission_versions v
              where v.submission_id = ${alias}.id and v.status = 'current'), 1)`;

/**
 * Stores an edit as the submission's next version, inside the caller's transaction (which
 * holds the submission's row lock). Version 1 is written first when there is none yet. A
 * `current` edit supersedes the version before it and becomes the submission's payload (its
 * search text follows: it is generated from the payload); a `spam` one is kept beside it and
 * changes nothing else. Returns the new version's number.
 */
export async function insertEditedVersion(
  tx: EntityManager,
  edit: {
    submissionId: string;
    payload: Record<string, unknown>;
    special: SpecialFields | null;
    status: 'current' | 'spam';
    spamReason: string | null;
  },
): Promise<number> {
  await runStatement(
    tx,
    `insert into submission_versions (submission_id, version, payload_json, status, created_at)
     select id, 1, payload_json, 'current', created_at from submissions where id = ?
     on conflict do nothing`,
    [edit.submissionId],
  );
  const [row] = await selectRows<{ next: number }>(
    tx,
    'select max(version) + 1 as next from submission_versions where submission_id = ?',
    [edit.submissionId],
  );
  const version = Number(row?.next ?? 2);
  if (edit.status === 'current') {
    await runStatement(
      tx,
      `update submission_versions set status = 'superseded'
        where submission_id = ? and status = 'current'`,
      [edit.submissionId],
    );
    await runStatement(
      tx,
      `update submissions set payload_json = ?::jsonb, special_normalized = ?::jsonb,
              updated_at = now()
        where id = ?`,
      [
        JSON.stringify(edit.payload),
        edit.special === null ? null : JSON.stringify(edit.special),
        edit.submissionId,
      ],
    );
  }
  await runStatement(
    tx,
    `insert into submission_versions (submission_id, version, payload_json, status, spam_reason)
     values (?, ?, ?::jsonb, ?, ?)`,
    [edit.submissionId, version, JSON.stringify(edit.payload), edit.status, edit.spamReason],
  );
  return version;
}

/**
 * One page of a submission's versions, oldest first: `limit` of them after version `after`
 * (a cursor) or after `offset` of them, how many there are, and whether more follow. A
 * submission never edited has none stored (its one version is the submission itself).
 */
export async function selectVersionsPage(
  em: EntityManager,
  submissionId: string,
  page: { limit: number; offset: number; after: number | null },
): Promise<{ rows: SubmissionVersionRow[]; total: number; more: boolean }> {
  const rows = await selectRows<SubmissionVersionRow>(
    em,
    `select version, payload_json, status, spam_reason, created_at
       from submission_versions where submission_id = ? and version > ?
      order by version limit ? offset ?`,
    [submissionId, page.after ?? 0, page.limit + 1, page.after === null ? page.offset : 0],
  );
  const [count] = await selectRows<{ total: number }>(
    em,
    'select count(*)::int as total from submission_versions where submission_id = ?',
    [submissionId],
  );
  return {
    rows: rows.slice(0, page.limit),
    total: count?.total ?? 0,
    more: rows.length > page.limit,
  };
}

/** Sets the unique field's key of a gated submission after an edit changed its value. */
export async function updateUniqueKey(
  tx: EntityManager,
  submissionId: string,
  uniqueKey: string | null,
): Promise<void> {
  await runStatement(tx, 'update submissions set unique_key = ? where id = ?', [
    uniqueKey,
    submissionId,
  ]);
}

/** How many versions a submission has stored (none until its first edit). */
export async function countVersions(tx: EntityManager, submissionId: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(
    tx,
    'select count(*)::int as total from submission_versions where submission_id = ?',
    [submissionId],
  );
  return row?.total ?? 0;
}
