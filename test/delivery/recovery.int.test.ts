import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  hrefOf,
  type AnswerBody,
  type CreatedWebhook,
  type FormView,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  standardSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceivedWebhook,
} from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { attemptsOf, FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// Recovery end to end (docs/recovery.md): a real receiver that fails, real retries, a real
// recovery workflow and its child submission workflows, the receiver fixed in between.

const t = useTestStack({ worker: true, env: FAST_DELIVERY_ENV });

/** Fails every delivery until fixed, except those whose message says they may pass. */
let fixed = false;
let hook: HttpsReceiver;
beforeAll(async () => {
  hook = await startHttpsReceiver(inject('stack').certificates, (request) =>
    fixed || request.body.includes('let me through')
      ? { status: 200, body: '{"ok":true}' }
      : { status: 500, body: 'receiver down' },
  );
});
afterAll(async () => {
  await hook?.close();
});

const submissionOf = (request: ReceivedWebhook) => String(JSON.parse(request.body).id);
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

type Recovery = AnswerBody<
  'GET /api/forms/{form_id}/plugins/{plugin_id}/recoveries/{id}',
  200
>['recovery'];

async function waitForRecovery(path: string, timeoutMs = 60_000): Promise<Recovery> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.api.get(path);
    const { recovery } = expectAnswer(
      res,
      'GET /api/forms/{form_id}/plugins/{plugin_id}/recoveries/{id}',
      200,
    );
    if (recovery.status !== 'running') return recovery;
    if (Date.now() > deadline) throw new Error(`recovery still running: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('recovering failed deliveries', () => {
  let form: FormView;
  let plugin: CreatedWebhook;
  let recoverPath: string;

  beforeAll(async () => {
    form = await t.api.createForm({ name: 'Recovery form' });
    plugin = await t.api.addWebhook(form.id, `${hook.url}/hooks`);
    recoverPath = `/api/forms/${form.id}/plugins/${plugin.id}/recover`;
  });

  it('re-delivers each failed submission once, under its webhook-id, numbering on', async () => {
    const failing = await Promise.all(
      [1, 2, 3].map((n) => submitJson(form, { message: `failing ${n}` })),
    );
    const delivered = await submitJson(form, { message: 'let me through' });
    const spam = await submitJson(form, { message: 'failing, later marked spam' });
    const failed = await Promise.all(
      [...failing, spam].map((id) => waitForAttempts(t.stack, id, 4, 40_000)),
    );
    for (const attempts of failed) {
      expect(attempts.map((a) => a.status)).toEqual([
        'pending_retry',
        'pending_retry',
        'pending_retry',
        'failed',
      ]);
    }
    expect((await waitForAttempts(t.stack, delivered, 1))[0]!.status).toBe('succeeded');
    await t.stack.sql(
      `update submissions set is_spam = true, spam_reason = 'manual' where id = ?`,
      [spam],
    );

    fixed = true;
    const before = hook.received.length;
    const res = await t.api.post(recoverPath, { since: hourAgo() });
    const run = expectAnswer(res, 'POST /api/forms/{form_id}/plugins/{id}/recover', 202).recovery;
    expect(run).toMatchObject({ plugin_id: plugin.id, total: 3, status: 'running' });
    expect(run.workflow_id).toBe(`recovery-${run.id}`);
    const progressUrl = hrefOf(run.links, 'self')!;
    expect(res.headers.get('location')).toBe(progressUrl);

    const finished = await waitForRecovery(new URL(progressUrl).pathname);
    expect(finished).toMatchObject({ status: 'completed', total: 3, done: 3, failed: 0 });
    expect(finished.finished_at).not.toBeNull();

    const redelivered = hook.received.slice(before);
    expect(redelivered.map(submissionOf).sort()).toEqual([...failing].sort());
    for (const [index, id] of failing.entries()) {
      const request = redelivered.find((r) => submissionOf(r) === id)!;
      const oldId = failed[index]![0]!.delivery_id;
      expect(request.headers['webhook-id']).toBe(oldId);
      expect(request.headers['x-formward-attempt']).toBe('5');
      expect(serviceSignatureValid(request, plugin.signing_secret)).toBe(true);
      expect(standardSignatureValid(request, plugin.signing_secret)).toBe(true);

      const attempts = await attemptsOf(t.stack, id);
      expect(attempts.map((a) => [a.delivery_id, a.attempt, a.status])).toEqual([
        [oldId, 1, 'pending_retry'],
        [oldId, 2, 'pending_retry'],
        [oldId, 3, 'pending_retry'],
        [oldId, 4, 'failed'],
        [oldId, 5, 'succeeded'],
      ]);
      expect(attempts[4]).toMatchObject({
        is_replay: true,
        workflow_id: `submission-${id}-recover-${run.id}`,
      });
    }

    // Nothing is left to recover: a second run counts none and completes at once.
    const again = await t.api.post(recoverPath, { since: hourAgo() });
    expect(
      expectAnswer(again, 'POST /api/forms/{form_id}/plugins/{id}/recover', 202).recovery,
    ).toMatchObject({ total: 0, status: 'completed', workflow_id: null });
  });

  it('is 404 for another account, for its own progress too', async () => {
    const other = await t.newTenant();
    expectError(await other.api.post(recoverPath, { since: hourAgo() }), 404, 'not_found');
    const run = await t.api.post(recoverPath, { since: hourAgo() });
    const { recovery } = expectAnswer(run, 'POST /api/forms/{form_id}/plugins/{id}/recover', 202);
    const path = new URL(hrefOf(recovery.links, 'self')!).pathname;
    expectError(await other.api.get(path), 404, 'not_found');
    expectError(await t.api.get(path.replace(/\d+$/, '999999')), 404, 'not_found');
  });

  it('validates since: present, a date-time, not in the future, at most 90 days back', async () => {
    expectValidationError(await t.api.post(recoverPath, {}), 'since');
    expectValidationError(await t.api.post(recoverPath, { since: 'yesterday' }), 'since');
    const future = new Date(Date.now() + 3600_000).toISOString();
    expectValidationError(await t.api.post(recoverPath, { since: future }), 'since');
    const old = new Date(Date.now() - 91 * 86400_000).toISOString();
    expectValidationError(await t.api.post(recoverPath, { since: old }), 'since');
    const extra = await t.api.post(recoverPath, { since: hourAgo(), until: hourAgo() });
    expectError(extra, 422, 'validation_failed');
  });

  it('refuses a disabled plugin (409) and a deleted one (404)', async () => {
    const other = await t.api.addWebhook(form.id, `${hook.url}/other`);
    const path = `/api/forms/${form.id}/plugins/${other.id}/recover`;
    await t.stack.sql('update plugins set enabled = false where id = ?', [other.id]);
    expectError(await t.api.post(path, { since: hourAgo() }), 409, 'plugin_disabled');
    expect((await t.api.delete(`/api/forms/${form.id}/plugins/${other.id}`)).status).toBe(200);
    expectError(await t.api.post(path, { since: hourAgo() }), 404, 'not_found');
  });
});
