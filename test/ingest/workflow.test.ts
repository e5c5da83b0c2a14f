import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedSubmissionWorkflow, waitForWorkflowMarks } from '../temporal/workflow-helpers';
import {
  contactFields,
  expectIngestResult,
  postForm,
  postJson,
  startIngestHarness,
  type FormView,
  type IngestHarness,
} from './helpers';

let h: IngestHarness;
let form: FormView;

beforeAll(async () => {
  h = await startIngestHarness({ worker: true });
  form = await h.createForm();
});
afterAll(async () => {
  await h?.stop();
});

describe('ingest starts the submission workflow', () => {
  it('?test=true runs the workflow synchronously and reports deliveries', async () => {
    const res = await postJson(`${form.json_url}?test=true`, contactFields);
    const clone = res.clone();
    const body = await expectIngestResult(res, h.stack.url, form);
    const full = (await clone.json()) as { deliveries: unknown };
    expect(full.deliveries).toEqual([]); // the form has no plugins

    const result = await completedSubmissionWorkflow(h.stack, body.id);
    expect(result).toMatchObject({ submissionId: body.id, spam: { isSpam: false } });
    const marks = await waitForWorkflowMarks(h.stack, body.id, 5_000);
    expect(marks.spam_checked_at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    { endpoint: 'json', send: () => postJson(form.json_url, contactFields) },
    {
      endpoint: 'f',
      send: () => postForm(form.submission_url, contactFields, { Accept: 'application/json' }),
    },
  ])('after a normal /$endpoint ingest the workflow runs in the background', async ({ send }) => {
    const body = await expectIngestResult(await send(), h.stack.url, form);
    const marks = await waitForWorkflowMarks(h.stack, body.id, 20_000);
    expect(marks.workflow_started_at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await completedSubmissionWorkflow(h.stack, body.id, 5_000);
  });
});
