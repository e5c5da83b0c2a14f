import { z } from 'zod';
import { can } from '../../domain/accounts/principal';
import { link, linksSchema } from '../kit/answers/links';
import { defineRoute } from '../kit/routing/define-route';
import { idString } from '../kit/answers/fields';

const apiRootSchema = z
  .object({
    ok: z.literal(true),
    account_id: idString('the account this credential belongs to'),
    links: linksSchema('the operations this credential may use, plus `openapi` and `docs`'),
  })
  .meta({ id: 'ApiRoot' });

/** `GET /api` (and `/api/`): the account id and the operations this credential may use. */
const apiRoot = (path: '/api' | '/api/', operationId: string) =>
  defineRoute({
    method: 'get',
    path,
    operationId,
    tag: 'API root',
    summary: path === '/api' ? 'The account and its operations' : 'The API root (trailing slash)',
    description:
      'The account id and links to the operations this credential permits, plus the ' +
      '`openapi` document and the `docs`.',
    access: 'any',
    responses: { 200: { description: 'the API root', body: apiRootSchema } },
    errors: [],
  }).handle(({ principal }, ctx) => {
    const base = ctx.urls.base;
    const links = [link('self', `${base}/api`), link('forms', `${base}/api/forms`)];
    if (can(principal, 'can_create_forms')) {
      links.push(link('create_form', `${base}/api/forms`, 'POST'));
      links.push(link('audit_log', `${base}/api/audit_log`));
    }
    if (can(principal, 'can_read_submissions'))
      links.push(link('submissions', `${base}/api/submissions`));
    if (can(principal, 'can_read_spam_submissions'))
      links.push(link('spam_submissions', `${base}/api/submissions/spam`));
    if (principal.kind === 'session') links.push(link('stats', `${base}/api/stats`));
    links.push(link('openapi', `${base}/api/openapi.json`), link('docs', `${base}/docs`));
    return { status: 200, body: { ok: true, account_id: principal.accountId, links } };
  });

export const apiRootRoutes = [
  apiRoot('/api', 'getApiRoot'),
  apiRoot('/api/', 'getApiRootTrailingSlash'),
];
