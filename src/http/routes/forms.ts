import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { can } from '../../domain/accounts/principal';
import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { formView } from '../../domain/forms/form-view';
import {
  createForm,
  findAccountForm,
  listAccountForms,
  updateForm,
} from '../../domain/forms/forms';
import { sendEnvelope, setLinkHeader } from '../envelope';
import { notFound } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';
import { jsonBody } from '../middleware/json-body';
import { requireScope } from '../middleware/require-scope';
import { createFormBody, updateFormBody, type UpdateFormBody } from '../schemas/forms';
import { pageMetaAndLinks, paginationQuery, toPage } from '../pagination';
import { parseOrThrow } from '../validate';

function toChanges(body: UpdateFormBody) {
  return {
    name: body.name,
    successRedirectUrl: body.success_redirect_url,
    isActive: body.is_active,
    allowedDomains: body.allowed_domains && [...new Set(body.allowed_domains)],
    notificationEmailAddresses: body.notification_email_addresses && [
      ...new Set(body.notification_email_addresses.map((e) => e.toLowerCase())),
    ],
  };
}

const withoutUndefined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** `/api/forms`: list, create, read and update the account's forms. */
export function formsRouter(ctx: AppContext): Router {
  const router = Router();

  router
    .route('/api/forms')
    .get(async (req, res) => {
      const principal = req.principal!;
      const page = toPage(parseOrThrow(paginationQuery, req.query, 'query'));
      const { rows: forms, total } = await listAccountForms(req.em, principal.accountId, page);
      const counts = await countSubmissionsByForm(
        req.em,
        forms.map((f) => f.id),
      );
      const self = `${ctx.urls.base}/api/forms`;
      const { meta, links } = pageMetaAndLinks(self, new URLSearchParams(), page, total);
      if (can(principal, 'can_create_forms')) links.push(link('create', self, 'POST'));
      setLinkHeader(res, links);
      sendEnvelope(
        res,
        'forms',
        forms.map((f) => formView(f, counts(f.id), ctx.urls, principal)),
        links,
        { meta },
      );
    })
    .post(requireScope('can_create_forms'), jsonBody, async (req, res) => {
      const body = parseOrThrow(createFormBody, req.body);
      const form = await createForm(req.em, req.principal!.accountId, {
        ...withoutUndefined(toChanges(body)),
        name: body.name,
      });
      const view = formView(
        form,
        { submissions: 0, spam: 0, lastSubmissionAt: null },
        ctx.urls,
        req.principal!,
      );
      res.setHeader('Location', `${ctx.urls.base}/api/forms/${form.id}`);
      sendEnvelope(res, 'form', view, view.links, { status: 201 });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/forms/:id')
    .get(async (req, res) => {
      const form = await findAccountForm(req.em, req.principal!.accountId, req.params.id);
      if (!form) throw notFound('form');
      const counts = await countSubmissionsByForm(req.em, [form.id]);
      const view = formView(form, counts(form.id), ctx.urls, req.principal!);
      sendEnvelope(res, 'form', view, view.links);
    })
    .patch(requireScope('can_create_forms'), jsonBody, async (req, res) => {
      const form = await findAccountForm(req.em, req.principal!.accountId, req.params.id);
      if (!form) throw notFound('form');
      const body = parseOrThrow(updateFormBody, req.body);
      await updateForm(req.em, form, withoutUndefined(toChanges(body)));
      ctx.forms.forget(form.endpointToken);
      const counts = await countSubmissionsByForm(req.em, [form.id]);
      const view = formView(form, counts(form.id), ctx.urls, req.principal!);
      sendEnvelope(res, 'form', view, view.links);
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  return router;
}
