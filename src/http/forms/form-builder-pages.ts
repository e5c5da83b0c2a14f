import type { Request, Response } from 'express';
import QRCode from 'qrcode';
import type { AppContext } from '../../runtime/app-context';
import type { Form } from '../../domain/entities';
import { type FormChanges, applyFormChanges } from '../../domain/forms/forms';
import { UNKNOWN_FIELD_POLICIES, type UnknownFieldPolicy } from '../../domain/forms/form-fields';
import { formOr404 } from './account-form';
import { type BuilderState, builderView, storedBuilderState } from './builder-view';
import { definePage, type Render } from '../kit/routing/define-page';
import { readFieldDraft } from './field-drafts';
import { applyFieldEdit, type FieldListEdit } from './field-list-edits';
import { type FlashCode, flashText, setFlash } from '../kit/session/flash';
import { formSectionData } from './form-page-data';
import { sectionTitle } from './form-sections';
import { pageOfDraft, readPageDraft } from './page-drafts';
import type { PageAudit } from '../kit/routing/page-audit';
import type { DashboardSession } from '../kit/session/session-guard';

const BUILDER = {
  access: 'session',
  template: 'form-build',
  title: (data: { form: { name: string } }) => sectionTitle('fields', data.form.name),
} as const;

/** Every builder post is a change of the form, recorded as PATCH /api/forms/{id} records it. */
const AUDIT = { action: 'form.updated', target: 'form' } as const;

type BuilderPage = {
  req: Request;
  res: Response;
  session: DashboardSession;
  render: Render<'form-build'>;
  audit: PageAudit;
};

const API_NAMES: Record<string, string> = {
  fields: 'fields',
  unknownFields: 'unknown_fields',
  page: 'page',
};

const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
const textOf = (req: Request, name: string) => {
  const value = bodyOf(req)[name];
  return typeof value === 'string' ? value : '';
};

async function showBuilder(
  { req, session, render }: BuilderPage,
  ctx: AppContext,
  form: Form,
  state: BuilderState,
  status = 200,
) {
  const section = await formSectionData(req, session, ctx, form, 'fields');
  await render({ ...section, builder: builderView(form, state) }, { status });
}

/**
 * Stores the changes with the API's audit entry ("changed fields"), then answers: htmx gets
 * the page at once (it swaps the builder in, and the notice is inside it); a plain post is
 * redirected to the page with a flash (post/redirect/get).
 */
async function saveAndAnswer(
  page: BuilderPage,
  ctx: AppContext,
  form: Form,
  changes: FormChanges,
  flash: FlashCode,
) {
  const changed = await applyFormChanges(page.req.em, form, changes);
  // A change that changes nothing is not an event (docs/audit-log.md).
  page.audit.skip = changed.length === 0;
  page.audit.summary = `changed ${changed.map((name) => API_NAMES[name] ?? name).join(', ')}`;
  ctx.forms.forget(form.endpointToken);
  const path = `/app/forms/${form.id}/fields`;
  if (page.req.get('hx-request') === 'true') {
    page.res.set('HX-Push-Url', path);
    const state = { ...storedBuilderState(form), notice: flashText(flash) };
    return showBuilder(page, ctx, form, state);
  }
  setFlash(page.res, ctx.urls.base, flash);
  page.res.redirect(303, path);
}

const FLASH_OF = {
  add: 'field_added',
  save: 'field_saved',
  up: 'field_moved',
  down: 'field_moved',
  remove: 'field_removed',
} as const satisfies Record<FieldListEdit['intent'], FlashCode>;

function editOf(req: Request): FieldListEdit | null {
  const intent = textOf(req, 'intent');
  const target = textOf(req, 'target');
  switch (intent) {
    case 'add':
      return { intent, draft: readFieldDraft(bodyOf(req)) };
    case 'save':
      return { intent, target, draft: readFieldDraft(bodyOf(req)) };
    case 'up':
    case 'down':
    case 'remove':
      return { intent, target };
    default:
      return null;
  }
}

/**
 * `/app/forms/:id/fields`: the builder of the form's field list (add, edit, move, remove),
 * what to do with other names (`unknown_fields`), the hosted page's settings and a preview.
 * Each post changes the stored form the way PATCH /api/forms/{id} does: the whole new list
 * is checked with the API's schema and refused whole, with the problems beside the inputs.
 * `/app/forms/:id/qr.svg`: the QR code of the page's link.
 */
export const formBuilderPages = [
  definePage({ need: 'member', ...BUILDER, method: 'get', path: '/app/forms/:id/fields' }).handle(
    async (page, ctx) => {
      const form = await formOr404(page.req, page.res);
      if (!form) return;
      const editing = typeof page.req.query.edit === 'string' ? page.req.query.edit : null;
      await showBuilder(page, ctx, form, storedBuilderState(form, editing));
    },
  ),

  definePage({
    need: 'can_create_forms',
    ...BUILDER,
    method: 'post',
    path: '/app/forms/:id/fields',
    audit: AUDIT,
  }).handle(async (page, ctx) => {
    const form = await formOr404(page.req, page.res);
    if (!form) return;
    const edit = editOf(page.req);
    if (!edit) {
      const state = { ...storedBuilderState(form), errors: { list: 'Unknown action.' } };
      return showBuilder(page, ctx, form, state, 422);
    }
    const result = applyFieldEdit(form.fields ?? [], edit, form);
    if (!result.ok) {
      const state = storedBuilderState(form);
      const shown: BuilderState =
        'draft' in edit && !result.stale
          ? {
              ...state,
              editing: edit.intent === 'save' ? edit.target : null,
              draft: edit.draft,
              errors: result.errors,
            }
          : { ...state, errors: result.errors };
      return showBuilder(page, ctx, form, shown, result.stale ? 409 : 422);
    }
    await saveAndAnswer(page, ctx, form, { fields: result.fields }, FLASH_OF[edit.intent]);
  }),

  definePage({
    need: 'can_create_forms',
    ...BUILDER,
    method: 'post',
    path: '/app/forms/:id/fields/unknown',
    audit: AUDIT,
  }).handle(async (page, ctx) => {
    const form = await formOr404(page.req, page.res);
    if (!form) return;
    const policy = textOf(page.req, 'unknown_fields');
    if (!(UNKNOWN_FIELD_POLICIES as readonly string[]).includes(policy)) {
      const state = {
        ...storedBuilderState(form),
        unknownError: 'Choose keep, drop or reject.',
      };
      return showBuilder(page, ctx, form, state, 422);
    }
    const changes = { unknownFields: policy as UnknownFieldPolicy };
    await saveAndAnswer(page, ctx, form, changes, 'unknown_fields_saved');
  }),

  definePage({
    need: 'can_create_forms',
    ...BUILDER,
    method: 'post',
    path: '/app/forms/:id/page',
    audit: AUDIT,
  }).handle(async (page, ctx) => {
    const form = await formOr404(page.req, page.res);
    if (!form) return;
    if (textOf(page.req, 'intent') === 'remove')
      return saveAndAnswer(page, ctx, form, { page: null }, 'page_removed');
    const draft = readPageDraft(bodyOf(page.req));
    const valid = pageOfDraft(draft);
    if (!valid.ok) {
      const state = { ...storedBuilderState(form), page: draft, pageErrors: valid.errors };
      return showBuilder(page, ctx, form, state, 422);
    }
    await saveAndAnswer(page, ctx, form, { page: valid.page }, 'page_saved');
  }),

  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms/:id/qr.svg',
    access: 'session',
  }).handle(async ({ req, res, session, next }, ctx) => {
    const form = await formOr404(req, res);
    if (!form) return;
    // The link people are given: the custom domain's when the form has one.
    const shown = (await formSectionData(req, session, ctx, form, 'share')).form;
    const url = shown.custom_page_url ?? shown.page_url;
    if (!url) return next();
    const svg = await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    res.type('image/svg+xml');
    if (req.query.download !== undefined) res.attachment(`form-${form.id}-page-qr.svg`);
    res.send(svg);
  }),
];
