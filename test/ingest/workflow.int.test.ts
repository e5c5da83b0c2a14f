import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';
import { contactFields, expectIngestResult, postForm, postJson } from '../support/ingest-requests';
import { completedSubmissionWorkflow, waitForWorkflowMarks } from '../support/workflow-probes';

const t = useTestStack({ worker: true, form: {} });

describe('ingest starts the submission workflow', () => {
  it('?test=true runs the workflow synchronously and reports deliveries', async () => {
    const res = await postJson(`${t.form.json_url}?test=true`, contactFields, {
      authorization: `Bearer ${t.adminKey}`,
    });
    const body = expectIngestResult(res, t.stack.url, t.form);
    expect(body.deliveries).toEqual([]); // the form has no plugins

    const result = await completedSubmissionWorkflow(t.stack, body.id);
    expect(result).toMatchObject({ submissionId: body.id, spam: { isSpam: false } });
    const marks = await waitForWorkflowMarks(t.stack, body.id, 5_000);
    expect(marks.spam_checked_at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    { endpoint: 'json', send: () => postJson(t.form.json_url, contactFields) },
    {
      endpoint: 'f',
      send: () => postForm(t.form.submission_url, contactFields, { Accept: 'application/json' }),
    },
  ])('after a normal /$endpoint ingest the workflow runs in the background', async ({ send }) => {
    const body = expectIngestResult(await send(), t.stack.url, t.form);
    const marks = await waitForWorkflowMarks(t.stack, body.id, 20_000);
    expect(marks.workflow_started).toBe(true);
    await completedSubmissionWorkflow(t.stack, body.id, 5_000);
  });
});
