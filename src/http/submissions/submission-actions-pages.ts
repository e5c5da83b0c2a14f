import { z } from 'zod';
import { eraseSenderSubmissions } from '../../domain/submissions/erase-sender';
import {
  countSenderErasure,
  deleteSubmission,
  markSubmissionSpam,
} from '../../domain/submissions/submission-changes';
import { findAccountSubmission } from '../../domain/submissions/submission-queries';
import { submissionView } from './submission-view';
import { sessionPrincipal } from '../forms/account-form';
import { definePage } from '../kit/routing/define-page';
import { displayFields } from './submission-display';
import { setFlash } from '../kit/session/flash';
import { sendNotFound } from '../kit/chrome/not-found';
import { problemLines } from '../ingest/field-problem-text';

const ERASE = {
  access: 'session',
  template: 'erase-sender',
  title: 'Erase a sender’s submissions',
} as const;
const eraseForm = z.object({ email: z.email().max(320), confirm: z.literal('yes').optional() });
const spamForm = z.object({ spam: z.enum(['0', '1']) });

/**
 * The changes a person makes to submissions: mark spam / not spam, delete one, replay one
 * (a submission marked not spam is not delivered until then), and erase every submission
 * of a sender (GDPR), after a page that names how many will go.
 */
export const submissionActionPages = [
  definePage({
    need: 'can_create_forms',
    ...ERASE,
    method: 'get',
    path: '/app/submissions/erase',
  }).handle(({ req, render }) => {
    const email = typeof req.query.email === 'string' ? req.query.email : '';
    return render({ email });
  }),

  definePage({
    need: 'can_create_forms',
    ...ERASE,
    method: 'post',
    path: '/app/submissions/erase',
    audit: { action: 'submissions.erased' },
  }).handle(async ({ req, res, session, render, audit }, ctx) => {
    const { accountId } = session;
    const form = eraseForm.safeParse(req.body ?? {});
    if (!form.success) {
      const email = String((req.body as { email?: unknown } | undefined)?.email ?? '');
      return render({ email, error: 'Enter a valid e-mail address.' }, { status: 422 });
    }
    const { email, confirm } = form.data;
    if (!confirm) {
      audit.skip = true; // the question before the erasure changes nothing
      const count = await countSenderErasure(req.em, accountId, email);
      return render({ email, count });
    }
    const { erased, audit: note } = await eraseSenderSubmissions(req.em, ctx, { accountId, email });
    Object.assign(audit, note);
    setFlash(res, ctx.urls.base, erased > 0 ? 'sender_erased' : 'sender_had_nothing');
    res.redirect(303, '/app/submissions');
  }),

  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/submissions/:id/spam',
    audit: { action: 'submission.spam_marked', target: 'submission' },
    access: 'session',
    template: 'submission',
    title: (data) => `Submission ${data.submission.id}`,
  }).handle(async ({ req, res, params, session, render }, ctx) => {
    const form = spamForm.safeParse(req.body ?? {});
    const spam = form.success && form.data.spam === '1';
    const marked = form.success
      ? await markSubmissionSpam(req.em, session.accountId, params.id, spam)
      : { outcome: 'not_found' as const };
    if (marked.outcome === 'not_found') return sendNotFound(req, res, 'submission');
    if (marked.outcome === 'breaks_rules') {
      // A stored honeypot post whose values the form refuses: shown again, still spam.
      const row = await findAccountSubmission(req.em, session.accountId, params.id);
      // Spam stays invisible to a role without the spam scope (as on the submission's page).
      if (!row || !session.scopes.has('can_read_spam_submissions'))
        return sendNotFound(req, res, 'submission');
      const submission = submissionView(row, ctx.urls, sessionPrincipal(session));
      const fields = displayFields(row.payload_json, submission.id);
      return render(
        { submission, fields, notSpamRefused: problemLines(marked.problem) },
        { status: 422 },
      );
    }
    setFlash(res, ctx.urls.base, spam ? 'marked_spam' : 'marked_not_spam');
    res.redirect(303, `/app/submissions/${params.id}`);
  }),

  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/submissions/:id/delete',
    audit: { action: 'submission.deleted', target: 'submission' },
    access: 'session',
  }).handle(async ({ req, res, params, session }, ctx) => {
    const { accountId } = session;
    const row = await findAccountSubmission(req.em, accountId, params.id);
    if (!row || !(await deleteSubmission(req.em, accountId, String(row.id))))
      return sendNotFound(req, res, 'submission');
    setFlash(res, ctx.urls.base, 'submission_deleted');
    res.redirect(303, `/app/forms/${row.form_id}/submissions`);
  }),
];
