import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { AppContext } from '../../../runtime/app-context';
import { countSubmissionsByForm } from '../../../domain/forms/form-counts';
import { LimitReachedError, limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createForm, listAccountForms, updateForm } from '../../../domain/forms/forms';
import type { Form } from '../../../domain/entities';
import { requestConfirmations } from '../../../domain/recipients/confirmations';
import { recipientLookup } from '../../../domain/recipients/recipient-states';
import { formView } from '../../views/form-view';
import {
  autoresponseInputOf,
  autoresponseSection,
  type AutoresponseSection,
} from '../autoresponse-fields';
import { definePage, type Render } from '../define-page';
import { setFlash } from '../flash';
import {
  type FieldErrors,
  formSettingsOf,
  type FormSettingsInput,
  NEW_FORM_INPUT,
  readFormSettings,
  validateFormSettings,
} from '../form-settings-fields';
import { formatTime } from '../format-time';
import { formOr404, sessionPrincipal } from '../account-form';
import { formRef } from '../page-views';
import { retentionPolicyView } from '../retention-policy';
import type { DashboardSession } from '../session-guard';

const PER_PAGE = 50;

/** Each address of the form not yet confirmed for the account gets its request. */
const askToConfirm = (em: EntityManager, ctx: AppContext, form: Form) =>
  requestConfirmations(em, ctx.accounts.mailing, {
    accountId: form.accountId,
    formName: form.name,
    addresses: form.notificationEmailAddresses,
    mailPerHour: ctx.config.accountMailPerHour,
  });

/**
 * The form's page, with the settings (or the autoresponse section, form-autoresponse.ts) as
 * typed and their errors after a refused save.
 */
export async function showForm(
  { req, session, render }: { req: Request; session: DashboardSession; render: Render<'form'> },
  ctx: AppContext,
  form: Form,
  edit?: { input: FormSettingsInput; errors: FieldErrors },
  autoresponse?: { section: AutoresponseSection; status: number },
) {
  const [counts, nextPurge] = await Promise.all([
    countSubmissionsByForm(req.em, [form.id]),
    ctx.retentionSchedule.nextPurge(),
  ]);
  const addresses = form.notificationEmailAddresses;
  const recipients = await recipientLookup(req.em, form.accountId, addresses);
  const principal = sessionPrincipal(session);
  const view = formView(form, counts(form.id), ctx.urls, principal, recipients(addresses));
  await render(
    {
      form: view,
      formatTime,
      lastSubmissionAt: counts(form.id).lastSubmissionAt,
      input: edit?.input ?? formSettingsOf(form),
      errors: edit?.errors ?? {},
      autoresponse:
        autoresponse?.section ?? autoresponseSection(form.name, autoresponseInputOf(form)),
      retention: retentionPolicyView(form, ctx.config.spamRetentionDays, nextPurge),
    },
    { status: edit ? 422 : (autoresponse?.status ?? 200) },
  );
}

const showNewForm = (
  render: Render<'form-new'>,
  input: FormSettingsInput,
  errors = {},
  refusal?: { status: number; message: string },
) =>
  render(
    { input, errors, refusal: refusal?.message ?? null },
    { status: refusal?.status ?? (Object.keys(errors).length > 0 ? 422 : 200) },
  );

const FORM = {
  access: 'session',
  template: 'form',
  title: (data: { form: { name: string } }) => data.form.name,
} as const;
const NEW_FORM = { access: 'session', template: 'form-new', title: 'New form' } as const;

/**
 * `/app/forms`: the list with counts, a new form, and each form's page (its settings, the
 * embed snippet and request examples); the test run and deletion are in form-actions.ts.
 */
export const formPages = [
  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms',
    access: 'session',
    template: 'forms',
    title: 'Forms',
  }).handle(async ({ req, session, render }) => {
    const requested = Number(req.query.page);
    const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
    const { rows, total } = await listAccountForms(req.em, session.accountId, {
      page,
      perPage: PER_PAGE,
    });
    const counts = await countSubmissionsByForm(
      req.em,
      rows.map((form) => form.id),
    );
    const forms = rows.map((form) => ({ form: formRef(form), counts: counts(form.id) }));
    await render({
      forms,
      total,
      page,
      pages: Math.max(1, Math.ceil(total / PER_PAGE)),
      formatTime,
    });
  }),

  definePage({
    need: 'can_create_forms',
    ...NEW_FORM,
    method: 'get',
    path: '/app/forms/new',
  }).handle(({ render }) => showNewForm(render, NEW_FORM_INPUT)),

  definePage({
    need: 'can_create_forms',
    ...NEW_FORM,
    method: 'post',
    path: '/app/forms',
    audit: { action: 'form.created', target: 'form' },
  }).handle(async ({ req, res, session, render, audit }, ctx) => {
    const input = readFormSettings(req.body);
    const valid = validateFormSettings(input, 'create');
    if (!valid.ok) return showNewForm(render, input, valid.errors);
    const form = await createForm(
      req.em,
      session.accountId,
      valid.changes,
      ctx.config.budgets.formsPerAccount,
    ).catch(limitReachedOrThrow);
    if (form instanceof LimitReachedError)
      return showNewForm(render, input, {}, { status: 409, message: form.message });
    await askToConfirm(req.em, ctx, form);
    audit.targetId = form.id;
    audit.summary = `created form “${form.name}”`;
    setFlash(res, ctx.urls.base, 'form_created');
    res.redirect(303, `/app/forms/${form.id}`);
  }),

  definePage({ need: 'member', ...FORM, method: 'get', path: '/app/forms/:id' }).handle(
    async (page, ctx) => {
      const form = await formOr404(page.req, page.res);
      if (form) await showForm(page, ctx, form);
    },
  ),

  definePage({
    need: 'can_create_forms',
    ...FORM,
    method: 'post',
    path: '/app/forms/:id',
    audit: { action: 'form.updated', target: 'form' },
  }).handle(async (page, ctx) => {
    const { req, res } = page;
    const form = await formOr404(req, res);
    if (!form) return;
    const input = readFormSettings(req.body);
    const valid = validateFormSettings(input, 'update');
    if (!valid.ok) return showForm(page, ctx, form, { input, errors: valid.errors });
    // Saved without a change: nothing for the audit log (docs/audit-log.md).
    page.audit.skip = (await updateForm(req.em, form, valid.changes)).length === 0;
    ctx.forms.forget(form.endpointToken);
    await askToConfirm(req.em, ctx, form);
    setFlash(res, ctx.urls.base, 'form_updated');
    res.redirect(303, `/app/forms/${form.id}`);
  }),
];
