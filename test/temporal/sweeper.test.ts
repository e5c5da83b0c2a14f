import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrm, migrate, type Orm } from '../../src/db/orm';
import { insertSubmissionOnce } from '../../src/db/sql/submissions';
import { startSweeper } from '../../src/temporal/sweeper';
import type { SubmissionWorkflowStarter } from '../../src/temporal/workflow-starter';
import { storeBareSubmission } from '../support/scratch-database';
import { createTestDatabase } from '../support/test-stack';

// src/temporal/sweeper.ts against a real database and a stand-in for Temporal: a stored
// submission's start is pending until a start succeeded; the sweeper never loses one.

let orm: Orm;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  orm.em.fork().getConnection().execute<T[]>(text, params);
let formId: string;
let accountId: string;

/** A Temporal stand-in: records starts, answers `answer`. */
function starter(answer: 'started' | 'full' | 'failed') {
  const started: string[] = [];
  const workflows = {
    startAdmitted: (id: string) => {
      if (answer === 'started') started.push(id);
      return Promise.resolve(answer);
    },
    isQueued: () => false,
  } as unknown as SubmissionWorkflowStarter;
  return { workflows, started };
}

const sweepOnce = async (workflows: SubmissionWorkflowStarter, graceMs = 0) => {
  const sweeper = startSweeper({
    orm,
    workflows,
    logger: pino({ level: 'silent' }),
    intervalMs: 3_600_000,
    graceMs,
  });
  try {
    return await sweeper.sweepNow();
  } finally {
    await sweeper.stop();
  }
};

/** Stores a submission the way ingest does (its start pending in the same statement). */
const ingest = () => storeBareSubmission(orm.em.fork(), { formId, accountId });

const pendingIds = async () =>
  (
    await sql<{ id: string }>(
      'select submission_id as id from pending_workflow_starts order by submission_id',
    )
  ).map((row) => String(row.id));

beforeAll(async () => {
  orm = await createOrm(await createTestDatabase(), { poolMax: 4 });
  await migrate(orm);
  const [account] = await sql<{ id: string }>(
    `insert into accounts (name) values ('S') returning id`,
  );
  accountId = String(account!.id);
  const [form] = await sql<{ id: string }>(
    `insert into forms (account_id, name, endpoint_token) values (?, 'f', 'asweeper00000001') returning id`,
    [accountId],
  );
  formId = String(form!.id);
});
afterAll(() => orm?.close());
beforeEach(() => sql('delete from pending_workflow_starts'));

describe('the workflow sweeper', () => {
  it('starts what ingest stored and no start marked, once', async () => {
    const ids = [await ingest(), await ingest()];
    expect(await pendingIds()).toEqual(ids);
    const temporal = starter('started');
    expect(await sweepOnce(temporal.workflows)).toBe(2);
    expect(temporal.started).toEqual(ids);
    expect(await pendingIds()).toEqual([]);
    expect(await sweepOnce(temporal.workflows)).toBe(0);
    expect(temporal.started).toEqual(ids);
  });

  it('keeps a start pending while Temporal refuses it or the window is full', async () => {
    const id = await ingest();
    for (const answer of ['failed', 'full'] as const) {
      expect(await sweepOnce(starter(answer).workflows)).toBe(0);
      expect(await pendingIds()).toEqual([id]);
    }
    const temporal = starter('started');
    expect(await sweepOnce(temporal.workflows)).toBe(1);
    expect(temporal.started).toEqual([id]);
  });

  it('leaves young submissions to the dispatcher', async () => {
    const id = await ingest();
    const temporal = starter('started');
    expect(await sweepOnce(temporal.workflows, 60_000)).toBe(0);
    expect(await pendingIds()).toEqual([id]);
  });

  it('forgets the pending start of a submission deleted meanwhile, without starting it', async () => {
    const [gone, kept] = [await ingest(), await ingest()];
    await sql('delete from submissions where id = ?', [gone]);
    const temporal = starter('started');
    expect(await sweepOnce(temporal.workflows)).toBe(1);
    expect(temporal.started).toEqual([kept]);
    expect(await pendingIds()).toEqual([]);
  });

  it('stores no second pending start when ingest runs its insert again', async () => {
    const em = orm.em.fork();
    const id = await ingest();
    const again = await insertSubmissionOnce(em, {
      id,
      formId,
      accountId,
      payloadJson: {},
      specialNormalized: null,
      sourceIp: null,
      userAgent: null,
      referrer: null,
      isSpam: false,
      spamReason: null,
      fillMs: null,
    });
    expect(again).toBe(false);
    expect(await pendingIds()).toEqual([id]);
  });
});
