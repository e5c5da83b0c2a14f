import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrm, migrate, type Orm } from '../../src/db/orm';
import { insertSubmissionOnce } from '../../src/db/sql/submission-inserts';
import { claimWorkflowStarts, type StartClaims } from '../../src/pipeline/2-claim-starts';
import { createAdmission, type Admission } from '../../src/pipeline/3-admission';
import type { SubmissionWorkflowStarter } from '../../src/pipeline/4-start-workflow';
import { eventually } from '../support/eventually';
import { bareSubmissionRow, storeBareSubmission } from '../support/scratch-database';
import { createTestDatabase } from '../support/test-stack';

// src/pipeline/2-claim-starts.ts against a real database and a stand-in for Temporal: a
// stored submission's start is pending until a start succeeded; nothing is lost when Temporal
// refuses or the admission window is full, and nothing waits in memory.

let orm: Orm;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  orm.em.fork().getConnection().execute<T[]>(text, params);
let formId: string;
let accountId: string;
const logger = pino({ level: 'silent' });

/** A Temporal stand-in: records starts; refuses them while `refusing` is set. */
function temporal() {
  const started: string[] = [];
  const state = { refusing: false, attempts: 0 };
  const workflows = {
    start: (id: string) => {
      state.attempts++;
      if (state.refusing) return Promise.reject(new Error('Temporal unavailable'));
      started.push(id);
      return Promise.resolve();
    },
  } as unknown as SubmissionWorkflowStarter;
  return { workflows, started, state };
}

const running: Array<{ claims: StartClaims; admission: Admission }> = [];
function claimLoop(workflows: SubmissionWorkflowStarter, window = 64) {
  const admission = createAdmission({ orm, window, logger });
  const claims = claimWorkflowStarts({ orm, workflows, admission, logger });
  running.push({ claims, admission });
  return { claims, admission };
}

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
    `insert into forms (account_id, name, endpoint_token) values (?, 'f', 'aclaimloop000001') returning id`,
    [accountId],
  );
  formId = String(form!.id);
});
afterAll(() => orm?.close());
beforeEach(async () => {
  for (const { claims, admission } of running.splice(0)) {
    await claims.stop();
    admission.stop();
  }
  await sql('delete from pending_workflow_starts');
});

describe('the claim loop of workflow starts', () => {
  it('starts what ingest stored, once, and forgets the rows started', async () => {
    const ids = [await ingest(), await ingest(), await ingest()];
    expect(await pendingIds()).toEqual(ids);
    const t = temporal();
    claimLoop(t.workflows);
    await eventually(async () => (await pendingIds()).length === 0, { what: 'rows deleted' });
    expect([...t.started].sort()).toEqual([...ids].sort());
    // Nothing left to claim: a later round starts nothing again.
    const more = await ingest();
    await eventually(async () => t.started.includes(more), { what: 'the new one started' });
    expect(t.started).toHaveLength(4);
  });

  it('keeps a start pending while Temporal refuses it, and starts it once Temporal answers', async () => {
    const id = await ingest();
    const t = temporal();
    t.state.refusing = true;
    claimLoop(t.workflows);
    await eventually(async () => t.state.attempts > 0, { what: 'a start tried' });
    expect(await pendingIds()).toEqual([id]);
    // The claim lapses (10 s) and the next poll claims it again.
    t.state.refusing = false;
    await eventually(async () => (await pendingIds()).length === 0, {
      timeoutMs: 30_000,
      what: 'started after the claim lapsed',
    });
    expect(t.started).toEqual([id]);
  });

  it('claims no more than the admission window has room for; the rest waits in PostgreSQL', async () => {
    const ids = [await ingest(), await ingest(), await ingest()];
    const t = temporal();
    const { claims } = claimLoop(t.workflows, 2);
    await eventually(async () => t.started.length === 2, { what: 'two started' });
    // No worker takes the workflows up here (no spam check is stored): the window stays full
    // until its 60 s expiry, and the third start waits as its row, unclaimed.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(t.started).toEqual(ids.slice(0, 2));
    expect(await pendingIds()).toEqual([ids[2]]);
    expect(claims.stats()).toMatchObject({ inFlight: 2, window: 2, starting: 0 });
    // A worker runs the first workflow's spam check: its slot frees, the third starts.
    await sql('update submissions set spam_checked_at = now() where id = ?', [ids[0]]);
    await eventually(async () => t.started.length === 3, { what: 'the third started' });
    expect(await pendingIds()).toEqual([]);
  });

  it('forgets the pending start of a submission deleted meanwhile, without starting it', async () => {
    const [gone, kept] = [await ingest(), await ingest()];
    await sql('delete from submissions where id = ?', [gone]);
    const t = temporal();
    claimLoop(t.workflows);
    await eventually(async () => (await pendingIds()).length === 0, { what: 'rows deleted' });
    expect(t.started).toEqual([kept]);
  });

  it('stores no second pending start when ingest runs its insert again', async () => {
    const em = orm.em.fork();
    const id = await ingest();
    const again = await insertSubmissionOnce(em, bareSubmissionRow(id, { formId, accountId }));
    expect(again).toBe(false);
    expect(await pendingIds()).toEqual([id]);
  });
});
