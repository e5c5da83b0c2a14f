import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../domain/entities';
import { can } from '../../domain/accounts/principal';
import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { createForm } from '../../domain/forms/create-form';
import { FileFieldsRefusedError, LimitsRefusedError } from '../../domain/forms/field-rules';
import { findAccountForm, listAccountFormsPage } from '../../domain/forms/forms';
import { FormPlaceRefusedError, SlugTakenError, updateForm } from '../../domain/forms/update-form';
import { recipientLookup } from '../../domain/recipients/recipient-states';
import { envelope, listAnswer } from '../kit/answers/envelope';
import { HttpError, notFound, validationFailed } from '../kit/errors/http-error';
import { link } from '../kit/answers/links';
import { viewsWithinBudget } from '../kit/answers/list-byte-budget';
import { budgetKeyset, cursorListQuery, cursorPage } from '../kit/answers/list-cursor';
import { MAX_PER_PAGE, pageMetaAndLinks } from '../kit/answers/pagination';
import { defineRoute } from '../kit/routing/define-route';
import { captchaChanges } from './captcha-changes';
import { formChanges } from './form-changes';
import { createFormBody, updateFormBody } from './forms-schemas';
import { LIST_HEADERS } from '../kit/answers/headers';
import { formEnvelope, formListEnvelope, formView } from './form-view';

/** Where each of the form's addresses stands (confirmed, pending, unsubscribed). */
async function recipientsOf(em: EntityManager, form: Form) {
  const addresses = form.notificationEmailAddresses;
  return (await recipientLookup(em, form.accountId, addresses))(addresses);
}

/** The form use cases' refusals as the API answers them. */
function answerRefusal(error: unknown): never {
  if (error instanceof FileFieldsRefusedError) throw validationFailed([error.message]);
  if (error instanceof LimitsRefusedError) throw validationFailed([error.message]);
  if (error instanceof FormPlaceRefusedError) throw validationFailed(error.problems);
  if (error instanceof SlugTakenError) throw new HttpError('slug_taken', error.message);
  throw error;
}

/** `/api/forms`: list, create, read and update the account's forms. */
export const formRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/forms',
    operationId: 'listForms',
    tag: 'Forms',
    summary: 'List forms',
    description:
      `The account's forms, newest first, one page at a time (at most ${MAX_PER_PAGE} a page). ` +
      "A page is also cut short where its forms would pass the answer's byte budget " +
      '(`LIST_MAX_BYTES`; `meta.truncated`, `meta.max_bytes`); its `next` link then carries a ' +
      '`cursor` that continues right after the last form returned.',
    access: 'any',
    query: cursorListQuery,
    responses: {
      200: { description: 'the forms', body: formListEnvelope, headers: LIST_HEADERS },
    },
    errors: [],
  }).handle(async ({ req, query, principal }, ctx) => {
    const { cursor } = query;
    const page = cursorPage(query);
    const { rows, total, more } = await listAccountFormsPage(req.em, principal.accountId, {
      ...page,
      after: cursor,
    });
    const forms = rows.map((row) => row.form);
    const counts = await countSubmissionsByForm(
      req.em,
      forms.map((f) => f.id),
    );
    const recipients = await recipientLookup(
      req.em,
      principal.accountId,
      forms.flatMap((f) => f.notificationEmailAddresses),
    );
    const maxBytes = ctx.config.listMaxBytes;
    const { views, cut } = viewsWithinBudget(
      forms,
      (f) =>
        formView(f, counts(f.id), ctx.urls, principal, recipients(f.notificationEmailAddresses)),
      maxBytes,
    );
    // Once a page is cut, or the request came with a cursor, the list goes on by keyset.
    const last = rows[views.length - 1]?.position;
    const keyset = budgetKeyset({ page, cursor }, { last, cut, more }, maxBytes);
    const self = `${ctx.urls.base}/api/forms`;
    const list = pageMetaAndLinks(self, new URLSearchParams(), page, total, keyset);
    if (can(principal, 'can_create_forms')) list.links.push(link('create', self, 'POST'));
    return listAnswer('forms', views, list);
  }),
  defineRoute({
    method: 'post',
    path: '/api/forms',
    operationId: 'createForm',
    tag: 'Forms',
    summary: 'Create a form',
    description:
      'Only `name` is required. The answer includes the endpoint_token, the ingest URLs and ' +
      'ready-to-paste `embed_html`. An account has at most `MAX_FORMS_PER_ACCOUNT` forms ' +
      '(500 by default), counted per owner over the accounts they own: past it, 409 ' +
      '`limit_reached`.',
    audit: { action: 'form.created', target: 'form' },
    access: 'can_create_forms',
    body: { schema: createFormBody, mediaTypes: ['application/json'], required: true },
    responses: {
      201: { description: 'created', body: formEnvelope, headers: { Location: 'the new form' } },
    },
    errors: ['limit_reached'],
  }).handle(async ({ req, body, principal, audit }, ctx) => {
    const { form, audit: note } = await createForm(req.em, ctx, {
      accountId: principal.accountId,
      settings: {
        ...formChanges(body),
        ...captchaChanges(body.captcha, null, ctx.captchaSecrets),
        name: body.name,
      },
    }).catch(answerRefusal);
    Object.assign(audit, note);
    const view = formView(
      form,
      { submissions: 0, spam: 0, lastSubmissionAt: null },
      ctx.urls,
      principal,
      await recipientsOf(req.em, form),
    );
    return {
      status: 201,
      body: envelope('form', view, view.links),
      headers: { Location: `${ctx.urls.base}/api/forms/${form.id}` },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/forms/{id}',
    operationId: 'getForm',
    tag: 'Forms',
    summary: 'Read a form',
    access: 'any',
    responses: { 200: { description: 'the form', body: formEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const form = await findAccountForm(req.em, principal.accountId, params.id);
    if (!form) throw notFound('form');
    const counts = await countSubmissionsByForm(req.em, [form.id]);
    const recipients = await recipientLookup(
      req.em,
      principal.accountId,
      form.notificationEmailAddresses,
    );
    const view = formView(
      form,
      counts(form.id),
      ctx.urls,
      principal,
      recipients(form.notificationEmailAddresses),
    );
    return { status: 200, body: envelope('form', view, view.links) };
  }),
  defineRoute({
    method: 'patch',
    path: '/api/forms/{id}',
    operationId: 'updateForm',
    tag: 'Forms',
    summary: 'Update a form',
    description:
      'Send any of the fields; the others stay. `is_active: false` makes ingest answer ' +
      '404 `not_active` until it is set back to true. `captcha` without `secret` keeps the ' +
      'stored secret when the provider stays the same (docs/captcha.md). `domain` must be a ' +
      'verified custom domain of this account (422 otherwise) and `slug` unused on it (409 ' +
      '`slug_taken`); with both, the page is also at https://{domain}/{slug} ' +
      '(docs/custom-domains.md).',
    audit: { action: 'form.updated', target: 'form' },
    access: 'can_create_forms',
    body: { schema: updateFormBody, mediaTypes: ['application/json'], required: true },
    responses: { 200: { description: 'the updated form', body: formEnvelope } },
    errors: ['not_found', 'slug_taken'],
  }).handle(async ({ req, params, body, principal, audit }, ctx) => {
    const form = await findAccountForm(req.em, principal.accountId, params.id);
    if (!form) throw notFound('form');
    const { audit: note } = await updateForm(req.em, ctx, form, {
      ...formChanges(body),
      ...captchaChanges(body.captcha, form.captcha, ctx.captchaSecrets),
    }).catch(answerRefusal);
    Object.assign(audit, note);
    const counts = await countSubmissionsByForm(req.em, [form.id]);
    const recipients = await recipientsOf(req.em, form);
    const view = formView(form, counts(form.id), ctx.urls, principal, recipients);
    return { status: 200, body: envelope('form', view, view.links) };
  }),
];
