import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTxtValue } from '../../src/domain/domains/domain-check';
import { expectAnswer, request, type ApiResponse } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import { requestWithHost } from '../support/host-request';
import { postForm } from '../support/ingest-requests';
import { cookieValue, setCookie } from '../support/sign-in';
import { type AppSession, openAppSession } from './dashboard-support';

// /app/domains over plain HTTP: add (with the records to copy), verify now, remove, the
// flash messages, the errors shown on the page, and what a viewer sees.

const TARGET = 'pages.formward.test';
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ [TARGET]: { A: ['93.184.216.34'] } });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({
  env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET },
}));
let session: AppSession;
let formId: string;
beforeAll(async () => {
  session = await openAppSession(t.stack.url, t.email, t.password);
});

const post = (path: string, fields: [string, string][] = []) =>
  postForm(`${t.stack.url}${path}`, [['_csrf', session.csrf], ...fields], {
    cookie: session.cookie,
  });

/** Follows a post's 303 with its flash cookie, as a browser does; returns the page. */
async function follow(posted: ApiResponse): Promise<ApiResponse> {
  expect(posted.status, posted.text).toBe(303);
  expect(posted.headers.get('location')).toBe('/app/domains');
  const flash = setCookie(posted, 'formward_flash');
  const cookie = flash ? `${session.cookie}; formward_flash=${cookieValue(flash)}` : session.cookie;
  return request('GET', `${t.stack.url}/app/domains`, { cookie });
}

describe('/app/domains', () => {
  it('is linked from the navigation', async () => {
    const page = await request('GET', `${t.stack.url}/app`, { cookie: session.cookie });
    expect(page.text).toContain('<a href="/app/domains">Domains</a>');
  });

  it('adds a domain and shows the records to add, each copyable', async () => {
    const page = await follow(await post('/app/domains', [['domain', 'Forms.Dash.Test']]));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Domain added.');
    expect(page.text).toContain('<h3 id="domain-0">forms.dash.test</h3>');
    expect(page.text).toContain('Not verified yet');
    const value = claimTxtValue(t.stack.ctx.appSecret, t.accountId, 'forms.dash.test');
    expect(page.text).toContain(`<code id="record-0-0-value">${value}</code>`);
    expect(page.text).toContain('data-copy-target="record-0-0-value"');
    expect(page.text).toContain(`<code id="record-0-1-value">${TARGET}</code>`);
  });

  it('shows a refusal on the page with what was typed, escaped', async () => {
    const res = await post('/app/domains', [['domain', '<b>not a domain</b>']]);
    expect(res.status).toBe(422);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('&lt;b&gt;not a domain&lt;/b&gt;');
    expect(res.text).not.toContain('<b>not a domain</b>');
  });

  it("another account's domain is refused without naming it", async () => {
    const other = await t.newTenant();
    await other.api.post('/api/domains', { domain: 'theirs.dash.test' });
    const res = await post('/app/domains', [['domain', 'theirs.dash.test']]);
    expect(res.status).toBe(409);
    expect(res.text).toContain('Another account holds theirs.dash.test. If you control its DNS');
    expect(res.text).toContain('then claim it again');
    expect(res.text).not.toContain(other.email);
  });

  it('"Verify now" says what happened: not yet, then verified', async () => {
    const missing = await follow(await post('/app/domains/forms.dash.test/verify'));
    expect(missing.text).toContain('Not verified yet: the records below');
    expect(missing.text).toContain('add a TXT record on _formward.forms.dash.test');
    dns.setRecords({
      [TARGET]: { A: ['93.184.216.34'] },
      'forms.dash.test': { CNAME: TARGET },
      '_formward.forms.dash.test': {
        TXT: [[claimTxtValue(t.stack.ctx.appSecret, t.accountId, 'forms.dash.test')]],
      },
    });
    const verified = await follow(await post('/app/domains/forms.dash.test/verify'));
    expect(verified.text).toContain('Verified: the domain serves');
    expect(verified.text).toContain('Verified, serving');
  });

  it('puts a form on the verified domain at a slug, served there at once', async () => {
    const form = await t.api.createForm({ name: 'Contact <us>' });
    formId = form.id;
    const page = await follow(
      await post('/app/domains/forms.dash.test/forms', [
        ['form', form.id],
        ['slug', 'contact'],
      ]),
    );
    expect(page.text).toContain('The form’s page is on the domain now');
    expect(page.text).toContain('<code>https://forms.dash.test/contact</code>');
    expect(page.text).toContain('Contact &lt;us&gt;');
    const res = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(res, 'GET /api/forms/{id}', 200).form).toMatchObject({
      domain: 'forms.dash.test',
      slug: 'contact',
    });
    expect((await requestWithHost(`${t.stack.url}/contact/thanks`, 'forms.dash.test')).status).toBe(
      200,
    );
  });

  it('a slug another form of the domain has is refused on the page', async () => {
    const second = await t.api.createForm({ name: 'Second' });
    const res = await post('/app/domains/forms.dash.test/forms', [
      ['form', second.id],
      ['slug', 'contact'],
    ]);
    expect(res.status).toBe(409);
    expect(res.text).toContain('Another form of this domain has this slug.');
    const bad = await post('/app/domains/forms.dash.test/forms', [
      ['form', second.id],
      ['slug', 'Not OK'],
    ]);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('The slug takes 1 to 64 lower-case letters');
  });

  it('takes a form off the domain', async () => {
    const page = await follow(await post(`/app/domains/forms.dash.test/forms/${formId}/remove`));
    expect(page.text).toContain('The form is off the domain');
    expect(page.text).not.toContain('https://forms.dash.test/contact');
  });

  it('a viewer sees the domains but no controls, and may not change them', async () => {
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const page = await request('GET', `${t.stack.url}/app/domains`, { cookie: viewer.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('forms.dash.test');
    expect(page.text).not.toContain('Verify now');
    const refused = await postForm(
      `${t.stack.url}/app/domains/forms.dash.test/delete`,
      [['_csrf', viewer.csrf]],
      { cookie: viewer.cookie },
    );
    expect(refused.status).toBe(403);
  });

  it('removes a domain', async () => {
    const page = await follow(await post('/app/domains/forms.dash.test/delete'));
    expect(page.text).toContain('Domain removed.');
    expect(page.text).not.toContain('<h3 id="domain-0">forms.dash.test</h3>');
    expect(page.text).toContain('No domains yet.');
  });

  it('an unknown domain is 404 on the page', async () => {
    const res = await post('/app/domains/nope.dash.test/verify');
    expect(res.status).toBe(404);
    expect(res.text).toContain('No such domain in this account.');
  });
});

describe('/app/domains counts its changes in API_WRITE_RATE', () => {
  const limited = useTestStack(() => ({
    env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET, API_WRITE_RATE: '3' },
  }));

  it('add, verify and remove count with the session’s API changes; past it, 429 on the page', async () => {
    const own = await openAppSession(limited.stack.url, limited.email, limited.password);
    const send = (path: string, fields: [string, string][] = []) =>
      postForm(`${limited.stack.url}${path}`, [['_csrf', own.csrf], ...fields], {
        cookie: own.cookie,
      });
    expect((await send('/app/domains', [['domain', 'a.rate.test']])).status).toBe(303);
    expect((await send('/app/domains/a.rate.test/verify')).status).toBe(303);
    expect((await send('/app/domains/a.rate.test/delete')).status).toBe(303);
    for (const [path, fields] of [
      ['/app/domains', [['domain', 'b.rate.test']]],
      ['/app/domains/a.rate.test/verify', []],
      ['/app/domains/a.rate.test/delete', []],
    ] as [string, [string, string][]][]) {
      const refused = await send(path, fields);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.text).toContain('You made API_WRITE_RATE’s 3 changes this minute.');
      expect(refused.text).toContain('role="alert"');
    }
    expect(
      await limited.stack.sql('select domain from domains where account_id = ?', [
        limited.accountId,
      ]),
    ).toEqual([]);
  });

  it('shows the daily verification ledger’s refusal on the page', async () => {
    const other = await limited.newTenant();
    const session = await openAppSession(limited.stack.url, other.email, other.password);
    await other.api.post('/api/domains', { domain: 'ledger.rate.test' });
    dns.setRecords({
      [TARGET]: { A: ['93.184.216.34'] },
      'ledger.rate.test': { CNAME: TARGET },
      '_formward.ledger.rate.test': {
        TXT: [[claimTxtValue(limited.stack.ctx.appSecret, other.accountId, 'ledger.rate.test')]],
      },
    });
    await limited.stack.sql(
      `insert into domain_verifications (account_id, domain)
         select ?, 'gone' || i || '.rate.test' from generate_series(1, 10) i`,
      [other.accountId],
    );
    const refused = await postForm(
      `${limited.stack.url}/app/domains/ledger.rate.test/verify`,
      [['_csrf', session.csrf]],
      { cookie: session.cookie },
    );
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('DOMAIN_VERIFICATIONS_PER_DAY allows at most 10');
    expect(refused.text).toContain('Not verified yet');
  });
});
