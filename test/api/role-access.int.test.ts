import { beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_ROLES, roleAllows, type MemberRole } from '../../src/domain/accounts/member-roles';
import { isScope } from '../../src/domain/accounts/scopes';
import { PAGES, ROUTES } from '../../src/http/routes';
import type { AnyRoute } from '../../src/http/kit/routing/define-route';
import type { AnyPage } from '../../src/http/kit/routing/define-page';
import { ApiClient, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { openAppSession } from '../dashboard/dashboard-support';

// Generated from ROUTES and PAGES, for each member role (docs/teams.md): a session of a role
// is refused every API operation whose scope the role lacks (403 `forbidden`, naming the
// role) and every dashboard page whose need it lacks (403 page), and opens the reads it is
// allowed. The path parameters name the account's own form, plugin and submission, so the
// refusal is not a 404 in disguise. A member removed, or whose role is lowered, is refused on
// the very next request.

const t = useTestStack({ form: {} });
const ids = { forms: '', plugins: '', submissions: '' };
type Member = { cookie: string; csrf: string };
const members = {} as Record<MemberRole, Member>;

beforeAll(async () => {
  ids.forms = t.form.id;
  ids.plugins = (await t.api.addWebhook(t.form.id, 'https://93.184.216.34/hook')).id;
  ids.submissions = await submitJson(t.form, { email: 'roles@example.com' });
  // The account's one owner is the user who created it; the others join it.
  members.owner = await openAppSession(t.stack.url, t.email, t.password);
  members.admin = await t.stack.addMember(t.accountId, 'admin');
  members.viewer = await t.stack.addMember(t.accountId, 'viewer');
});

/** An API path with each `{param}` filled with the account's resource of the segment before it. */
function routePath(route: AnyRoute): string {
  return route.path.replace(/([^/]+)\/\{(\w+)\}/g, (_match, segment: string, param: string) => {
    const owner = param === 'form_id' ? 'forms' : param === 'plugin_id' ? 'plugins' : segment;
    return `${segment}/${ids[owner as keyof typeof ids] ?? '1'}`;
  });
}

/** A page path with each `:param` filled the same way (`:id` after `forms` is the form). */
function pagePath(page: AnyPage): string {
  return page.path.replace(/([^/]+)\/:(\w+)/g, (_match, segment: string, param: string) => {
    const owner =
      param === 'formId'
        ? 'forms'
        : param === 'pluginId'
          ? 'plugins'
          : segment === 'recoveries' || segment === 'keys'
            ? ''
            : segment;
    return `${segment}/${ids[owner as keyof typeof ids] || '1'}`;
  });
}

function sessionClient(member: Member) {
  return new ApiClient(t.stack.url, { cookie: member.cookie });
}

function send(member: Member, method: string, path: string) {
  const headers = { 'x-csrf-token': member.csrf };
  const json = ['POST', 'PATCH'].includes(method) ? {} : undefined;
  return sessionClient(member).send(method, path, { headers, ...(json ? { json } : {}) });
}

const scoped = ROUTES.filter((route) => isScope(route.access));
const sessionPages = PAGES.filter((page) => page.access === 'session');

describe('the generated lists', () => {
  it('cover scoped operations and session pages, with their parameters filled', () => {
    expect(scoped.length).toBeGreaterThan(10);
    expect(sessionPages.length).toBeGreaterThan(30);
    for (const route of scoped) expect(routePath(route)).not.toMatch(/[{}]/);
    for (const page of sessionPages) expect(pagePath(page)).not.toMatch(/:/);
    // Each role is refused something, except that owner and admin differ only by pages.
    const refusedTo = (role: MemberRole) =>
      sessionPages.filter((page) => !roleAllows(role, page.need!)).length;
    expect(refusedTo('viewer')).toBeGreaterThan(refusedTo('admin'));
    expect(refusedTo('owner')).toBe(0);
  });
});

describe.each(MEMBER_ROLES.map((role) => [role] as const))('a session of a %s', (role) => {
  const refusedRoutes = scoped.filter((route) => !roleAllows(role, route.access as never));
  const allowedReads = scoped.filter(
    (route) => route.method === 'get' && roleAllows(role, route.access as never),
  );

  it
    .runIf(refusedRoutes.length > 0)
    .each(
      refusedRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const),
    )('%s → 403 forbidden', async (_label, route) => {
    const res = await send(members[role], route.method.toUpperCase(), routePath(route));
    const body = expectError(res, 403, 'forbidden');
    expect(body.message).toContain(`role (${role})`);
  });

  it.each(allowedReads.map((route) => [`GET ${route.path}`, route] as const))(
    '%s is allowed',
    async (_label, route) => {
      const res = await send(members[role], 'GET', routePath(route));
      expect([200, 404], res.text).toContain(res.status);
      if (!route.path.includes('{')) expect(res.status).toBe(200);
    },
  );

  const refusedPages = sessionPages.filter((page) => !roleAllows(role, page.need!));
  const allowedPageReads = sessionPages.filter(
    (page) => page.method === 'get' && roleAllows(role, page.need!),
  );

  it
    .runIf(refusedPages.length > 0)
    .each(refusedPages.map((page) => [`${page.method.toUpperCase()} ${page.path}`, page] as const))(
    'page %s → 403 "Not allowed"',
    async (_label, page) => {
      const method = page.method.toUpperCase();
      const res = await sessionClient(members[role]).send(method, pagePath(page), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: method === 'POST' ? `_csrf=${encodeURIComponent(members[role].csrf)}` : undefined,
      });
      expect(res.status, res.text).toBe(403);
      expect(res.text).toContain(`Your role in`);
      expect(res.text).toContain(`is ${role}, which does not allow this`);
    },
  );

  it.each(allowedPageReads.map((page) => [`GET ${page.path}`, page] as const))(
    'page %s opens',
    async (_label, page) => {
      const res = await sessionClient(members[role]).get(pagePath(page));
      expect(res.status, `${pagePath(page)}: ${res.text.slice(0, 300)}`).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    },
  );
});

describe('a change of membership', () => {
  it('takes effect on the next request: a lowered role is refused, a removed member signed out', async () => {
    const member = await t.stack.addMember(t.accountId, 'admin');
    const client = sessionClient(member);
    expect((await client.get('/api/submissions/spam')).status).toBe(200);
    await t.stack.sql(`update memberships set role = 'viewer' where user_id = ?`, [member.userId]);
    expectError(await client.get('/api/submissions/spam'), 403, 'forbidden');
    expect((await client.get('/app/keys')).status).toBe(403);
    await t.stack.sql('delete from memberships where user_id = ? and account_id = ?', [
      member.userId,
      t.accountId,
    ]);
    expectError(await client.get('/api/forms'), 401, 'unauthorized');
    const page = await client.get('/app/forms');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/^\/login\?next=/);
  });

  it('a viewer sees no spam tab, and a spam submission is not found for them', async () => {
    const viewer = sessionClient(members.viewer);
    const list = await viewer.get(`/app/forms/${ids.forms}/submissions`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('>Spam</a>');
    expect((await viewer.get(`/app/forms/${ids.forms}/submissions?spam=1`)).status).toBe(404);
    const admin = sessionClient(members.admin);
    expect((await admin.get(`/app/forms/${ids.forms}/submissions`)).text).toContain('>Spam</a>');
    const spamId = await submitJson(t.form, { email: 'x@example.com', _hp: 'http://spam.example' });
    await expect
      .poll(async () => await t.api.submissionIds('/api/submissions/spam'), { timeout: 20_000 })
      .toContain(spamId);
    expect((await admin.get(`/app/submissions/${spamId}`)).status).toBe(200);
    expect((await viewer.get(`/app/submissions/${spamId}`)).status).toBe(404);
    expect((await viewer.get(`/app/submissions/${spamId}/deliveries`)).status).toBe(404);
  });
});
