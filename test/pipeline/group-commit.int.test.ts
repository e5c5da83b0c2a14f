import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenTo } from '../../src/db/notifications';
import type { NewSubmissionRow } from '../../src/db/sql/submission-inserts';
import { PENDING_STARTS_CHANNEL } from '../../src/db/sql/workflow-start-claims';
import { createGroupCommit } from '../../src/pipeline/1-group-commit';
import { eventually } from '../support/eventually';
import { bareSubmissionRow, useScratchDatabase } from '../support/scratch-database';
import { aroundStatements } from '../support/statement-spy';

// src/pipeline/1-group-commit.ts against a real PostgreSQL: concurrent submissions share one
// statement, each caller hears after that commit, a lone one is not held back, and a failure
// reaches each caller as it would without grouping.

const db = useScratchDatabase({ poolMax: 4 });
let form: { accountId: string; formId: string };

beforeAll(async () => {
  form = await db.accountWithForm('agroupcommit0001');
});

afterEach(() => {
  vi.restoreAllMocks();
});

const row = (id: string, message: string, formId = form.formId): NewSubmissionRow =>
  bareSubmissionRow(id, { ...form, formId }, { message });

/** Counts (and can hold back or break) the statements that insert submissions. */
async function watchInserts(options: { hold?: Promise<void>; failAfterCommit?: () => Error } = {}) {
  const groups: number[] = [];
  await aroundStatements(db.orm, async (statement, send) => {
    if (!statement.sql.includes('insert into submissions')) return send();
    groups.push((JSON.parse(String(statement.bindings[0])) as unknown[]).length);
    if (groups.length === 1 && options.hold) await options.hold;
    const result = await send();
    if (options.failAfterCommit) throw options.failAfterCommit();
    return result;
  });
  return groups;
}

const stored = async (ids: string[]) =>
  (
    await db.sql<{ id: string; pending: boolean }>(
      `select s.id::text as id, exists (select 1 from pending_workflow_starts p
          where p.submission_id = s.id) as pending
         from submissions s where s.id = any(?::bigint[]) order by s.id`,
      [`{${ids.join(',')}}`],
    )
  ).map((r) => `${r.id}${r.pending ? ' pending' : ''}`);

describe('group commit at ingest', () => {
  it('stores submissions that arrive together in one statement, each visible once its caller hears', async () => {
    const writer = createGroupCommit(db.orm);
    const groups = await watchInserts();
    const ids = await Promise.all(Array.from({ length: 40 }, () => writer.takeId()));
    expect(new Set(ids).size).toBe(40);
    const seenByOthers = await Promise.all(
      ids.map(async (id, i) => {
        const inserted = await writer.insert(row(id, `together ${i}`));
        // Committed before the caller hears: another connection already reads the row.
        const [found] = await db.sql(`select 1 from submissions where id = ?`, [id]);
        return inserted && found !== undefined;
      }),
    );
    expect(seenByOthers.every(Boolean)).toBe(true);
    expect(groups).toEqual([40]);
    expect(await stored(ids)).toEqual(ids.map((id) => `${id} pending`));
    await writer.close();
  });

  it('sends a lone submission at once, without waiting for company', async () => {
    const writer = createGroupCommit(db.orm);
    const id = await writer.takeId();
    const groups = await watchInserts();
    const done = writer.insert(row(id, 'alone'));
    // No timer: the statement is on its way by the end of this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups).toEqual([1]);
    expect(await done).toBe(true);
    await writer.close();
  });

  it('lets the submissions that arrive during a write go together in the next statement', async () => {
    const writer = createGroupCommit(db.orm);
    let release!: () => void;
    const groups = await watchInserts({ hold: new Promise((resolve) => (release = resolve)) });
    const first = writer.insert(row(await writer.takeId(), 'first'));
    await eventually(async () => groups.length === 1, { what: 'the first statement sent' });
    const ids = await Promise.all(Array.from({ length: 25 }, () => writer.takeId()));
    const later = ids.map((id, i) => writer.insert(row(id, `later ${i}`)));
    release();
    expect(await first).toBe(true);
    expect(await Promise.all(later)).toEqual(ids.map(() => true));
    expect(groups).toEqual([1, 25]);
    await writer.close();
  });

  it('tells the listening workers once per group', async () => {
    const writer = createGroupCommit(db.orm);
    let heard = 0;
    const listening = listenTo(
      db.orm,
      PENDING_STARTS_CHANNEL,
      () => heard++,
      pino({ level: 'silent' }),
    );
    try {
      await eventually(async () => heard === 1, { what: 'the call on connecting' });
      const ids = await Promise.all(Array.from({ length: 30 }, () => writer.takeId()));
      await Promise.all(ids.map((id, i) => writer.insert(row(id, `notified ${i}`))));
      await eventually(async () => heard === 2, { what: 'the notification of the group' });
      // Stored again (a retry), nothing new: no notification.
      expect(await writer.insert(row(ids[0]!, 'notified 0'))).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toBe(2);
    } finally {
      await listening.stop();
      await writer.close();
    }
  });

  it("fails only the caller whose row PostgreSQL refuses; the others' rows are stored", async () => {
    const writer = createGroupCommit(db.orm);
    const ids = await Promise.all(Array.from({ length: 6 }, () => writer.takeId()));
    const results = await Promise.allSettled(
      ids.map((id, i) => writer.insert(row(id, `mixed ${i}`, i === 3 ? '999999999' : form.formId))),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    const kept = ids.filter((_, i) => i !== 3);
    expect(await stored(ids)).toEqual(kept.map((id) => `${id} pending`));
    await writer.close();
  });

  it('splits a group with one refused row in halves: a few statements, not one per row', async () => {
    const writer = createGroupCommit(db.orm);
    const ids = await Promise.all(Array.from({ length: 40 }, () => writer.takeId()));
    const groups = await watchInserts();
    const poisoned = 27;
    const results = await Promise.allSettled(
      ids.map((id, i) =>
        writer.insert(row(id, `bisected ${i}`, i === poisoned ? '999999999' : form.formId)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(
      ids.map((_, i) => (i === poisoned ? 'rejected' : 'fulfilled')),
    );
    expect(String((results[poisoned] as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    expect(await stored(ids)).toEqual(
      ids.filter((_, i) => i !== poisoned).map((id) => `${id} pending`),
    );
    // The group, then two halves per level down to the bad row: 1 + 2·ceil(log2 40) = 13.
    expect(groups[0]).toBe(40);
    expect(groups.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(40)));
    await writer.close();
  });

  it('fails every caller of a group whose answer was lost; sent again, each row is stored once', async () => {
    const writer = createGroupCommit(db.orm);
    const ids = await Promise.all(Array.from({ length: 5 }, () => writer.takeId()));
    await watchInserts({
      failAfterCommit: () =>
        Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        }),
    });
    const results = await Promise.allSettled(
      ids.map((id, i) => writer.insert(row(id, `lost ${i}`))),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    vi.restoreAllMocks();
    // What a retrying caller does: the same rows again, found committed.
    expect(await Promise.all(ids.map((id, i) => writer.insert(row(id, `lost ${i}`))))).toEqual(
      ids.map(() => false),
    );
    expect(await stored(ids)).toEqual(ids.map((id) => `${id} pending`));
    await writer.close();
  });

  it('takes ids in blocks: a few round trips for many submissions', async () => {
    const writer = createGroupCommit(db.orm);
    let reservations = 0;
    await aroundStatements(db.orm, (statement, send) => {
      if (statement.sql.includes("nextval('submissions_id_seq')")) reservations++;
      return send();
    });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await writer.takeId());
    expect(new Set(ids).size).toBe(300);
    expect(reservations).toBeLessThanOrEqual(4);
    await writer.close();
  });

  it('refuses new submissions once closed, after the group in flight is stored', async () => {
    const writer = createGroupCommit(db.orm);
    const id = await writer.takeId();
    const inFlight = writer.insert(row(id, 'before closing'));
    await writer.close();
    expect(await inFlight).toBe(true);
    await expect(writer.insert(row(await writer.takeId(), 'after'))).rejects.toThrow(
      /shutting down/,
    );
  });
});
