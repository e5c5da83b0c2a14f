import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { LimitReachedError, limitReachedOrThrow } from '../../domain/budgets/limit-reached';
import { createForm } from '../../domain/forms/create-form';
import { FileFieldsRefusedError, LimitsRefusedError } from '../../domain/forms/field-rules';
import { listAccountForms } from '../../domain/forms/forms';
import { updateForm } from '../../domain/forms/update-form';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import {
  type FormSettingsInput,
  NEW_FORM_INPUT,
  readFormSettings,
  validateFormSettings,
} from './form-settings-fields';
import { formatTime } from '../kit/chrome/format-time';
import { formOr404 } from './account-form';
import { formSectionData } from './form-page-data';
import { formRef } from './page-views';
import { SETTINGS_PAGE, showSettings } from './form-sections-pages';

const PER_PAGE = 50;

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

const OVERVIEW = {
  access: 'session',
  template: 'form',
  title: (data: { form: { name: string } }) => data.form.name,
} as const;
const NEW_FORM = { access: 'session', template: 'form-new', title: 'New form' } as const;

/**
 * `/app/forms`: the list with counts, a new form, each form's overview and the post of its
 * settings; the other sections of a form are in form-sections-pages.ts and form-builder-pages.ts, the
 * test run and deletion in form-actions-pages.ts.
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
    const created = await createForm(req.em, ctx, {
      accountId: session.accountId,
      settings: valid.changes,
    }).catch(limitReachedOrThrow);
    if (created instanceof LimitReachedError)
      return showNewForm(render, input, {}, { status: 409, message: created.message });
    const { form } = created;
    Object.assign(audit, created.audit);
    setFlash(res, ctx.urls.base, 'form_created');
    res.redirect(303, `/app/forms/${form.id}`);
  }),

  definePage({ need: 'member', ...OVERVIEW, method: 'get', path: '/app/forms/:id' }).handle(
    async ({ req, res, session, render }, ctx) => {
      const form = await formOr404(req, res);
      if (!form) return;
      await render(await formSectionData(req, session, ctx, form, 'overview'));
    },
  ),

  // The settings section's form (form-sections-pages.ts shows it) posts here, as it always did.
  definePage({
    need: 'can_create_forms',
    ...SETTINGS_PAGE,
    method: 'post',
    path: '/app/forms/:id',
    audit: { action: 'form.updated', target: 'form' },
  }).handle(async (page, ctx) => {
    const { req, res } = page;
    const form = await formOr404(req, res);
    if (!form) return;
    const input = readFormSettings(req.body);
    const valid = validateFormSettings(input, 'update');
    if (!valid.ok) return showSettings(page, ctx, form, { input, errors: valid.errors });
    const updated = await updateForm(req.em, ctx, form, valid.changes).catch((error: unknown) => {
      // Unticking uploads while the form has a file field: shown at the checkbox.
      if (error instanceof FileFieldsRefusedError)
        return { refused: { accept_files: error.message.replace(/^fields: /, '') } };
      // A unique field that is not one of the form's fields: shown at its input.
      if (error instanceof LimitsRefusedError)
        return { refused: { unique_field: error.message.replace(/^limits\.unique_field: /, '') } };
      throw error;
    });
    if ('refused' in updated)
      return showSettings(page, ctx, form, { input, errors: updated.refused });
    Object.assign(page.audit, updated.audit);
    setFlash(res, ctx.urls.base, 'form_updated');
    res.redirect(303, `/app/forms/${form.id}/settings`);
  }),
];
