import { placeForm, SLUG_PATTERN } from '../../domain/domains/domain-forms';
import { findAccountForm } from '../../domain/forms/forms';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { bodyField } from '../plugins/plugin-list-pages';
import { DOMAINS, DOMAINS_PATH, ownedDomain, showDomains } from './domains-pages';

/** The pages' words for checkFormPlace's `field: problem` strings. */
const sentence = (error: string) =>
  `${error.replace(/^\w+: /, '').replace(/^./, (c) => c.toUpperCase())}.`;

/**
 * `/app/domains/{domain}/forms`: puts one of the account's forms on a verified domain at a
 * slug (`https://{domain}/{slug}`), or takes it off; the same as PATCH /api/forms/{id} with
 * `domain` and `slug` (docs/custom-domains.md).
 */
export const domainFormPages = [
  definePage({
    need: 'can_create_forms',
    ...DOMAINS,
    method: 'post',
    path: `${DOMAINS_PATH}/:domain/forms`,
    audit: { action: 'form.updated', target: 'form' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session, audit } = page;
    const formId = bodyField(req, 'form');
    const slug = bodyField(req, 'slug').trim();
    const domain = await ownedDomain(req, session, params.domain);
    const form = domain ? await findAccountForm(req.em, session.accountId, formId) : null;
    const refuse = (status: number, error: string) => {
      audit.skip = true;
      const placement = { domain: params.domain, error, formId, slug };
      return showDomains(page, ctx, { status, data: { placement } });
    };
    if (!domain) return showDomains(page, ctx, { status: 404, data: { notFound: true } });
    if (!form) return refuse(422, 'Choose one of your forms.');
    if (!SLUG_PATTERN.test(slug))
      return refuse(422, 'The slug takes 1 to 64 lower-case letters, digits and hyphens.');
    const placed = await placeForm(req.em, form, { domain: domain.domain, slug });
    if (placed.errors.length > 0) return refuse(422, sentence(placed.errors[0]!));
    if (placed.slugTaken) return refuse(409, 'Another form of this domain has this slug.');
    ctx.forms.forget(form.endpointToken);
    audit.skip = !placed.changed;
    audit.targetId = form.id;
    audit.summary = `changed domain, slug`;
    setFlash(res, ctx.urls.base, 'domain_form_placed');
    res.redirect(303, DOMAINS_PATH);
  }),

  definePage({
    need: 'can_create_forms',
    ...DOMAINS,
    method: 'post',
    path: `${DOMAINS_PATH}/:domain/forms/:formId/remove`,
    audit: { action: 'form.updated', target: 'form', targetParam: 'formId' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session, audit } = page;
    const form = await findAccountForm(req.em, session.accountId, params.formId);
    if (!form || form.domain !== params.domain.toLowerCase()) {
      audit.skip = true;
      return showDomains(page, ctx, { status: 404, data: { notFound: true } });
    }
    const placed = await placeForm(req.em, form, { domain: null, slug: null });
    ctx.forms.forget(form.endpointToken);
    audit.skip = !placed.changed;
    audit.summary = `changed domain, slug`;
    setFlash(res, ctx.urls.base, 'domain_form_removed');
    res.redirect(303, DOMAINS_PATH);
  }),
];
