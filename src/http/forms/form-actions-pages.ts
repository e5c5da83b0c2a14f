import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { deleteForm } from '../../domain/forms/forms';
import { storeTestSubmission } from '../../domain/submissions/test-submission';
import { testDeliveriesView } from '../ingest/test-deliveries';
import { formOr404 } from './account-form';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formRef } from './page-views';

/** As long as the API's `?test=true` waits for the deliveries (src/http/ingest/ingest-api.ts). */
const TEST_RUN_TIMEOUT_MS = 60_000;

/**
 * A form's test submission (the path of `POST /json/{token}?test=true`: a stored sample
 * submission whose workflow runs now, each delivery's result shown) and its deletion, after a
 * page that names how many submissions go with it.
 */
export const formActionPages = [
  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/forms/:id/test',
    audit: { action: 'form.test_sent', target: 'form' },
    access: 'session',
    template: 'form-test',
    title: (data) => `Test of ${data.form.name}`,
  }).handle(async ({ req, res, render }, ctx) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const view = formRef(form);
    if (!form.isActive) {
      const error = 'This form is not active: ingest refuses its submissions. Activate it first.';
      return render({ form: view, error }, { status: 409 });
    }
    const { id } = await storeTestSubmission(
      req.em,
      form,
      { userAgent: req.get('user-agent')?.slice(0, 1024) ?? null },
      {
        quota: ctx.config.fileQuota,
        store: ctx.fileStore,
        writeSlots: ctx.uploadWrites,
        url: (submissionId, fileId) =>
          `${ctx.urls.base}/api/submissions/${submissionId}/files/${fileId}`,
      },
    );
    try {
      const result = await ctx.workflows.runAndWait(id, TEST_RUN_TIMEOUT_MS);
      const deliveries = testDeliveriesView(result.deliveries);
      await render({ form: view, submissionId: id, deliveries, spam: result.spam });
    } catch (error) {
      ctx.logger.warn({ err: error, submissionId: id }, 'dashboard test submission did not finish');
      const message =
        'The submission is stored, but its deliveries did not finish in time; ' +
        'their results will be in the delivery log.';
      await render({ form: view, submissionId: id, error: message }, { status: 504 });
    }
  }),

  definePage({
    need: 'can_create_forms',
    method: 'get',
    path: '/app/forms/:id/delete',
    access: 'session',
    template: 'form-delete',
    title: (data) => `Delete ${data.form.name}`,
  }).handle(async ({ req, res, render }) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const counts = (await countSubmissionsByForm(req.em, [form.id]))(form.id);
    await render({ form: formRef(form), submissions: counts.submissions, spam: counts.spam });
  }),

  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/forms/:id/delete',
    audit: { action: 'form.deleted', target: 'form' },
    access: 'session',
  }).handle(async ({ req, res }, ctx) => {
    const form = await formOr404(req, res);
    if (!form) return;
    await deleteForm(req.em, form);
    ctx.forms.forget(form.endpointToken);
    setFlash(res, ctx.urls.base, 'form_deleted');
    res.redirect(303, '/app/forms');
  }),
];
