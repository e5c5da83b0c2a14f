import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { countSubmissionsByForm } from '../../../domain/forms/form-counts';
import { LimitReachedError, limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createForm, listAccountForms, updateForm } from '../../../domain/forms/forms';
import type { Form } from '../../../db/entities';
import { requestConfirmations } from '../../../domain/recipients/confirmations';
import { recipientLookup } from '../../../domain/recipients/recipient-states';
import { formView } from '../../views/form-view';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
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
import { sessionOf } from '../session-guard';
import { formActionPages } from './form-actions';

const PER_PAGE = 50;

/**
 * `/app/forms`: the list with counts, a new form, and each form's page (its settings, the
 * embed snippet and request examples); the test run and deletion are in form-actions.ts.
 */
export const formPages: DashboardPages = (router, ctx) => {
  /** Each address of the form not yet confirmed for the account gets its request. */
  const askToConfirm = (em: EntityManager, form: Form) =>
    requestConfirmations(em, ctx.accounts.mailing, {
      accountId: form.accountId,
      formName: form.name,
      addresses: form.notificationEmailAddresses,
      mailPerHour: ctx.config.accountMailPerHour,
    });

  /** The form's page, with the settings as typed and their errors after a refused save. */
  async function showForm(
    req: Request,
    res: Response,
    form: Form,
    edit?: { input: FormSettingsInput; errors: FieldErrors },
  ) {
    const counts = await countSubmissionsByForm(req.em, [form.id]);
    const addresses = form.notificationEmailAddresses;
    const recipients = await recipientLookup(req.em, form.accountId, addresses);
    const principal = sessionPrincipal(sessionOf(res));
    const view = formView(form, counts(form.id), ctx.urls, principal, recipients(addresses));
    await sendAppPage(
      req,
      res,
      { status: edit ? 422 : 200, template: 'form', title: form.name },
      {
        form: view,
        formatTime,
        lastSubmissionAt: counts(form.id).lastSubmissionAt,
        input: edit?.input ?? formSettingsOf(form),
        errors: edit?.errors ?? {},
      },
    );
  }

  const showNewForm = (
    req: Request,
    res: Response,
    input: FormSettingsInput,
    errors = {},
    refusal?: { status: number; message: string },
  ) =>
    sendAppPage(
      req,
      res,
      {
        status: refusal?.status ?? (Object.keys(errors).length > 0 ? 422 : 200),
        template: 'form-new',
        title: 'New form',
      },
      { input, errors, refusal: refusal?.message ?? null },
    );

  router.get('/app/forms', async (req, res) => {
    const requested = Number(req.query.page);
    const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
    const { accountId } = sessionOf(res);
    const { rows, total } = await listAccountForms(req.em, accountId, {
      page,
      perPage: PER_PAGE,
    });
    const counts = await countSubmissionsByForm(
      req.em,
      rows.map((form) => form.id),
    );
    const forms = rows.map((form) => ({ form, counts: counts(form.id) }));
    await sendAppPage(
      req,
      res,
      { template: 'forms', title: 'Forms' },
      { forms, total, page, pages: Math.max(1, Math.ceil(total / PER_PAGE)), formatTime },
    );
  });

  router.get('/app/forms/new', (req, res) => showNewForm(req, res, NEW_FORM_INPUT));

  router.post('/app/forms', async (req, res) => {
    const input = readFormSettings(req.body);
    const valid = validateFormSettings(input, 'create');
    if (!valid.ok) return showNewForm(req, res, input, valid.errors);
    const form = await createForm(
      req.em,
      sessionOf(res).accountId,
      valid.changes,
      ctx.config.budgets.formsPerAccount,
    ).catch(limitReachedOrThrow);
    if (form instanceof LimitReachedError)
      return showNewForm(req, res, input, {}, { status: 409, message: form.message });
    await askToConfirm(req.em, form);
    setFlash(res, ctx.urls.base, 'form_created');
    res.redirect(303, `/app/forms/${form.id}`);
  });

  router.get('/app/forms/:id', async (req, res) => {
    const form = await formOr404(req, res);
    if (form) await showForm(req, res, form);
  });

  router.post('/app/forms/:id', async (req, res) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const input = readFormSettings(req.body);
    const valid = validateFormSettings(input, 'update');
    if (!valid.ok) return showForm(req, res, form, { input, errors: valid.errors });
    await updateForm(req.em, form, valid.changes);
    ctx.forms.forget(form.endpointToken);
    await askToConfirm(req.em, form);
    setFlash(res, ctx.urls.base, 'form_updated');
    res.redirect(303, `/app/forms/${form.id}`);
  });

  formActionPages(router, ctx);
};
