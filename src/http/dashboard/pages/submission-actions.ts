import { z } from 'zod';
import {
  countSenderErasure,
  deleteSubmission,
  eraseSender,
  markSubmissionSpam,
} from '../../../domain/submissions/submission-changes';
import { findAccountSubmission } from '../../../domain/submissions/submission-queries';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { setFlash } from '../flash';
import { sendNotFound } from '../not-found';
import { sessionOf } from '../session-guard';

const ERASE = { template: 'erase-sender', title: 'Erase a sender’s submissions' };
const eraseForm = z.object({ email: z.email().max(320), confirm: z.literal('yes').optional() });
const spamForm = z.object({ spam: z.enum(['0', '1']) });

/**
 * The changes a person makes to submissions: mark spam / not spam, delete one, replay one
 * (a submission marked not spam is not delivered until then), and erase every submission
 * of a sender (GDPR), after a page that names how many will go.
 */
export const submissionActionPages: DashboardPages = (router, ctx) => {
  router.get('/app/submissions/erase', (req, res) => {
    const email = typeof req.query.email === 'string' ? req.query.email : '';
    return sendAppPage(req, res, ERASE, { email });
  });

  router.post('/app/submissions/erase', async (req, res) => {
    const { accountId } = sessionOf(res);
    const form = eraseForm.safeParse(req.body ?? {});
    if (!form.success) {
      const email = String((req.body as { email?: unknown } | undefined)?.email ?? '');
      return sendAppPage(
        req,
        res,
        { ...ERASE, status: 422 },
        { email, error: 'Enter a valid e-mail address.' },
      );
    }
    const { email, confirm } = form.data;
    if (!confirm) {
      const count = await countSenderErasure(req.em, accountId, email);
      return sendAppPage(req, res, ERASE, { email, count });
    }
    const erased = await eraseSender(req.em, accountId, email);
    ctx.logger.info({ accountId, erased }, 'sender erasure');
    setFlash(res, ctx.urls.base, erased > 0 ? 'sender_erased' : 'sender_had_nothing');
    res.redirect(303, '/app/submissions');
  });

  router.post('/app/submissions/:id/spam', async (req, res) => {
    const { accountId } = sessionOf(res);
    const id = String(req.params.id);
    const form = spamForm.safeParse(req.body ?? {});
    const spam = form.success && form.data.spam === '1';
    if (!form.success || !(await markSubmissionSpam(req.em, accountId, id, spam)))
      return sendNotFound(req, res, 'submission');
    setFlash(res, ctx.urls.base, spam ? 'marked_spam' : 'marked_not_spam');
    res.redirect(303, `/app/submissions/${id}`);
  });

  router.post('/app/submissions/:id/delete', async (req, res) => {
    const { accountId } = sessionOf(res);
    const row = await findAccountSubmission(req.em, accountId, String(req.params.id));
    if (!row || !(await deleteSubmission(req.em, accountId, String(row.id))))
      return sendNotFound(req, res, 'submission');
    setFlash(res, ctx.urls.base, 'submission_deleted');
    res.redirect(303, `/app/forms/${row.form_id}/submissions`);
  });
};
