import type { Router } from 'express';
import { countSubmissionsByForm } from '../../../domain/forms/form-counts';
import { deleteForm } from '../../../domain/forms/forms';
import { storeTestSubmission } from '../../../domain/submissions/test-submission';
import type { AppContext } from '../../../runtime/app-context';
import { testDeliveriesView } from '../../views/test-deliveries';
import { sendAppPage } from '../app-page';
import { setFlash } from '../flash';
import { formOr404 } from '../account-form';

/** As long as the API's `?test=true` waits for the deliveries (src/http/routes/ingest.ts). */
const TEST_RUN_TIMEOUT_MS = 60_000;

/**
 * A form's test submission (the path of `POST /json/{token}?test=true`: a stored sample
 * submission whose workflow runs now, each delivery's result shown) and its deletion, after a
 * page that names how many submissions go with it.
 */
export function formActionPages(router: Router, ctx: AppContext): void {
  router.post('/app/forms/:id/test', async (req, res) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const page = { template: 'form-test', title: `Test of ${form.name}` };
    if (!form.isActive) {
      const error = 'This form is not active: ingest refuses its submissions. Activate it first.';
      return sendAppPage(req, res, { ...page, status: 409 }, { form, error });
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
      await sendAppPage(req, res, page, { form, submissionId: id, deliveries, spam: result.spam });
    } catch (error) {
      ctx.logger.warn({ err: error, submissionId: id }, 'dashboard test submission did not finish');
      const message =
        'The submission is stored, but its deliveries did not finish in time; ' +
        'their results will be in the delivery log.';
      await sendAppPage(
        req,
        res,
        { ...page, status: 504 },
        { form, submissionId: id, error: message },
      );
    }
  });

  router.get('/app/forms/:id/delete', async (req, res) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const counts = (await countSubmissionsByForm(req.em, [form.id]))(form.id);
    await sendAppPage(
      req,
      res,
      { template: 'form-delete', title: `Delete ${form.name}` },
      { form, submissions: counts.submissions, spam: counts.spam },
    );
  });

  router.post('/app/forms/:id/delete', async (req, res) => {
    const form = await formOr404(req, res);
    if (!form) return;
    await deleteForm(req.em, form);
    ctx.forms.forget(form.endpointToken);
    setFlash(res, ctx.urls.base, 'form_deleted');
    res.redirect(303, '/app/forms');
  });
}
