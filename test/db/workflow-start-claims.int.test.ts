import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { listenTo } from '../../src/db/notifications';
import { claimPendingStarts, PENDING_STARTS_CHANNEL } from '../../src/db/sql/workflow-start-claims';
import { eventually } from '../support/eventually';
import { storeBareSubmission, useScratchDatabase } from '../support/scratch-database';

// src/db/sql/workflow-start-claims.ts and src/db/notifications.ts: how workers share the
// pending workflow starts (docs/running.md, "Who starts the workflows"). The notifications
// themselves come from the statements that store submissions (test/pipeline/group-commit.int.test.ts).

describe('claims of pending workflow starts', () => {
  const db = useScratchDatabase({ poolMax: 4 });
  let form: { accountId: string; formId: string };

  const ingest = (startHeldMs = 0) => storeBareSubmission(db.orm.em.fork(), form, {}, startHeldMs);
  const notify = () => db.sql(`select pg_notify('${PENDING_STARTS_CHANNEL}', '')`);
  const claim = async (limit: number, leaseMs = 30_000) =>
    (await claimPendingStarts(db.orm.em.fork(), limit, leaseMs)).map((claimed) => claimed.id);

  beforeEach(async () => {
    form ??= await db.accountWithForm('aclaims000000001');
    await db.sql('delete from pending_workflow_starts');
  });

  it('gives racing claimers disjoint rows, and a claimed row to nobody else until it lapses', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await ingest());
    const [first, second] = await Promise.all([claim(5), claim(5)]);
    expect(first).toHaveLength(5);
    expect(second).toHaveLength(5);
    expect([...first!, ...second!].sort()).toEqual([...ids].sort());
    expect(await claim(10)).toEqual([]);

    // A worker that died: its claims lapse and another one takes them.
    const lapsed = first!.slice(0, 2);
    await db.sql(
      `update pending_workflow_starts set claimed_until = now() - interval '1 second'
        where submission_id = any(?::bigint[])`,
      [`{${lapsed.join(',')}}`],
    );
    expect((await claim(10)).sort()).toEqual([...lapsed].sort());
  });

  it('takes the oldest first and never more than asked', async () => {
    const ids = [await ingest(), await ingest(), await ingest()];
    expect(await claim(2)).toEqual(expect.arrayContaining(ids.slice(0, 2)));
    expect(await claim(2)).toEqual([ids[2]]);
  });

  it('leaves a start held by the process that stored it (a test run) until the hold ends', async () => {
    const held = await ingest(60_000);
    expect(await claim(10)).toEqual([]);
    await db.sql(
      `update pending_workflow_starts set claimed_until = now() where submission_id = ?`,
      [held],
    );
    expect(await claim(10)).toEqual([held]);
  });

  it('hears each notification, and listens again after its connection was killed', async () => {
    let calls = 0;
    const listening = listenTo(
      db.orm,
      PENDING_STARTS_CHANNEL,
      () => calls++,
      pino({ level: 'silent' }),
    );
    try {
      // Once on connecting (what was notified before is caught up on), then per notification.
      await eventually(async () => calls === 1, { what: 'the call on connecting' });
      await notify();
      await eventually(async () => calls === 2, { what: 'the notification' });

      await db.sql(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where query = 'listen ${PENDING_STARTS_CHANNEL}' and pid <> pg_backend_pid()
            and datname = current_database()`,
      );
      await eventually(async () => calls === 3, { what: 'the call on reconnecting' });
      await notify();
      await eventually(async () => calls === 4, { what: 'notifications after reconnecting' });
    } finally {
      await listening.stop();
    }
  });

  it("hands each claim the ingest request's traceparent, where tracing stored one", async () => {
    const traced = await ingest();
    const untraced = await ingest();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await db.sql(
      `update pending_workflow_starts set traceparent = '${traceparent}' where submission_id = ${traced}`,
    );
    const claims = await claimPendingStarts(db.orm.em.fork(), 10, 30_000);
    expect(claims.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([
      { id: traced, traceparent, present: true },
      { id: untraced, traceparent: null, present: true },
    ]);
  });
});
