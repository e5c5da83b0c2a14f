import { describe, expect, it } from 'vitest';
import { ReplayBudget } from '../../../src/domain/deliveries/replay-budget';
import { replaySubmission } from '../../../src/domain/deliveries/replay-submission';
import { replayWorkflowId } from '../../../src/pipeline/workflow-ids';
import { expectAnswer, expectError } from '../../support/api-client';
import { useTestStack } from '../../support/fixture';
import { submitJson } from '../../support/ingest-requests';
import { temporalClientOf } from '../../support/retention-runs';
import { auditEntries, dashboardOf, freshEm } from './use-case-stack';

// src/domain/deliveries/replay-submission.ts called directly against the real database and
// Temporal (no worker: a started replay stays running), and the audit rule it now gives the
// API and the dashboard alike: only a replay that started is an event.

const t = useTestStack({ form: { name: 'Replays' } });

const markSpam = (id: string) =>
  t.stack.sql(
    `update submissions set is_spam = true, spam_reason = 'marked_by_hand' where id = ?`,
    [id],
  );

describe('replaySubmission', () => {
  it('starts a replay workflow within the owner’s budget, then answers rate_limited', async () => {
    const id = await submitJson(t.form, { message: 'again' });
    const pool = await t.stack.ctx.orm.em.getConnection().getNativeClient();
    // A budget of one replay a minute, counted in the same PostgreSQL rows as the server's.
    const deps = { ...t.stack.ctx, replayBudget: new ReplayBudget(pool, 1) };
    const started = await replaySubmission(freshEm(t), deps, t.accountId, id);
    if (started.outcome !== 'started') throw new Error(`not started: ${started.outcome}`);
    expect(started.workflowId).toMatch(new RegExp(`^${replayWorkflowId(id, '')}`));
    expect(started.audit).toEqual({ targetId: id });
    const temporal = await temporalClientOf(t.stack);
    try {
      const described = await temporal.client.workflow
        .getHandle(started.workflowId, started.runId)
        .describe();
      expect(described.taskQueue).toBe(t.stack.taskQueue);
    } finally {
      await temporal.close();
    }
    const again = await replaySubmission(freshEm(t), deps, t.accountId, id);
    expect(again).toMatchObject({ outcome: 'rate_limited', perMinute: 1 });
  });

  it('never replays spam, nor another account’s submission', async () => {
    const id = await submitJson(t.form, { message: 'spam' });
    await markSpam(id);
    expect(await replaySubmission(freshEm(t), t.stack.ctx, t.accountId, id)).toEqual({
      outcome: 'spam',
    });
    const other = await t.newTenant();
    expect(await replaySubmission(freshEm(t), t.stack.ctx, other.accountId, id)).toEqual({
      outcome: 'not_found',
    });
  });
});

describe('one audit rule for the API and the dashboard', () => {
  it('records a started replay, and nothing for a replay refused', async () => {
    const app = await dashboardOf(t);
    const spam = await submitJson(t.form, { message: 'refused' });
    await markSpam(spam);
    expectError(await t.api.post(`/api/submissions/${spam}/replay`), 422, 'validation_failed');
    await app.post(`/app/submissions/${spam}/replay`);
    const ham = await submitJson(t.form, { message: 'replayed' });
    expectAnswer(
      await t.api.post(`/api/submissions/${ham}/replay`),
      'POST /api/submissions/{id}/replay',
      202,
    );
    await app.post(`/app/submissions/${ham}/replay`);
    const entries = await auditEntries(t, 'submission.replayed');
    expect(entries.map((entry) => entry.target_id)).toEqual([ham, ham]);
  });
});
