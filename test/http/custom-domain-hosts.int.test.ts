import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTxtValue } from '../../src/domain/domains/domain-check';
import { recheckDueDomains } from '../../src/domain/domains/domain-rechecks';
import { expectAnswer, request } from '../support/api-client';
import { startDnsServer, type DnsRecords, type DnsServer } from '../support/dns-server';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { requestWithHost } from '../support/host-request';
import { withoutReceipt } from '../support/ingest-requests';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

const TARGET = 'pages.formward.test';
const TARGET_ADDRESS = '93.184.216.34';
const DOMAIN = 'forms.acme.test';
const OTHER_DOMAIN = 'other.acme.test';

let dns: DnsServer;
let smtp: SmtpSink;
beforeAll(async () => {
  dns = await startDnsServer({});
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await dns?.close();
  await smtp?.close();
});

const t = useTestStack(() => ({
  env: {
    DNS_SERVERS: dns.address,
    FORM_PAGES_TARGET: TARGET,
    BASE_URL: 'https://app.formward.test',
    INGEST_URL: 'https://ingest.formward.test',
    METRICS_PORT: '0',
    SMTP_URL: smtp.url(),
  },
}));

let token: string;
let formId: string;

/** The records that verify the domains named, for the kit's account. */
function records(...domains: string[]): DnsRecords {
  const entries: DnsRecords = { [TARGET]: { A: [TARGET_ADDRESS] } };
  for (const domain of domains) {
    entries[domain] = { CNAME: TARGET };
    entries[`_formward.${domain}`] = {
      TXT: [[claimTxtValue(t.stack.ctx.appSecret, t.accountId, domain)]],
    };
  }
  return entries;
}

const onHost = (host: string, path: string, options?: Parameters<typeof requestWithHost>[2]) =>
  requestWithHost(`${t.stack.url}${path}`, host, options);
const ask = (domain: string) =>
  request('GET', t.stack.metricsUrl!.replace(/\/metrics$/, `/tls/ask?domain=${domain}`));
/** As if the domain had been verified `minutes` ago (Caddy's ask waits for 10). */
const verifiedAgo = (domain: string, minutes: number) =>
  t.stack.sql(
    `update domains set verified_at = now() - make_interval(mins => ?) where domain = ?`,
    [minutes, domain],
  );
const postMessage = (host: string, path: string, origin: string) =>
  onHost(host, path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: 'message=hello+from+the+page',
  });

beforeAll(async () => {
  dns.setRecords(records(DOMAIN, OTHER_DOMAIN));
  for (const domain of [DOMAIN, OTHER_DOMAIN, 'pending.acme.test']) {
    await t.api.post('/api/domains', { domain });
    if (domain !== 'pending.acme.test') await t.api.post(`/api/domains/${domain}/verify`);
  }
  const form = await t.api.createForm({ name: 'Contact', allowed_domains: ['acme-site.test'] });
  token = form.endpoint_token;
  formId = form.id;
  await t.api.patch(`/api/forms/${form.id}`, { domain: DOMAIN, slug: 'contact' });
  const other = await t.api.createForm({ name: 'Hello' });
  await t.api.patch(`/api/forms/${other.id}`, { domain: OTHER_DOMAIN, slug: 'hello' });
  for (const domain of [DOMAIN, OTHER_DOMAIN]) await verifiedAgo(domain, 11);
});

describe('a custom domain serves its forms at /{slug}', () => {
  it('POST /{slug} stores the submission and goes to /{slug}/thanks on the same host', async () => {
    const res = await postMessage(DOMAIN, '/contact', `https://${DOMAIN}`);
    expect(res.status, res.text).toBe(302);
    expect(withoutReceipt(res.headers.location)).toBe('/contact/thanks');
    const ids = await t.api.submissionIds(`/api/submissions?form_id=${formId}`);
    expect(ids).toHaveLength(1);
  });

  it('its own domain passes the allowed_domains check; other origins do not', async () => {
    expect((await postMessage(DOMAIN, '/contact', 'https://evil.example')).status).toBe(403);
    expect((await postMessage(DOMAIN, '/contact', 'https://acme-site.test')).status).toBe(302);
  });

  it('GET /{slug}/thanks and /{slug}/autocomplete.js answer like /f/{token}/…', async () => {
    const thanks = await onHost(DOMAIN, '/contact/thanks');
    expect(thanks.status).toBe(200);
    expect(thanks.headers['content-type']).toMatch(/text\/html/);
    const script = await onHost(DOMAIN, '/contact/autocomplete.js?v=1');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it.each([
    ['the API', '/api/forms'],
    ['the API root', '/api'],
    ['the dashboard', '/app'],
    ['the sign-in page', '/login'],
    ['the documentation', '/docs'],
    ['the health probe', '/healthz'],
    ['the ingest path', `/f/TOKEN`],
    ['the root', '/'],
    ['an unknown slug', '/nope'],
    ['a slug path that is no form route', '/contact/other'],
    ["another domain's slug", '/hello'],
    ["another domain's thanks page", '/hello/thanks'],
  ])('%s is 404 there', async (_what, path) => {
    const res = await onHost(DOMAIN, path.replace('TOKEN', token), {
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    expect(res.status, res.text).toBe(404);
    expect(res.text).not.toContain(token);
  });

  it('the other domain serves its own form', async () => {
    expect((await onHost(OTHER_DOMAIN, '/hello/thanks')).status).toBe(200);
    expect((await onHost(OTHER_DOMAIN, '/contact/thanks')).status).toBe(404);
  });

  it('a claimed domain that never verified serves nothing', async () => {
    expect((await onHost('pending.acme.test', '/contact/thanks')).status).toBe(404);
  });
});

describe('which hosts reach the whole service', () => {
  it.each([
    ['BASE_URL’s host', 'app.formward.test'],
    ['INGEST_URL’s host', 'ingest.formward.test'],
    ['FORM_PAGES_TARGET', TARGET],
    ['an IP address with a port', '127.0.0.1:3000'],
    ['an IPv6 address', '[::1]:3000'],
    ['localhost', 'localhost:3000'],
    ['a container service name', 'serve:3000'],
  ])('%s passes', async (_what, host) => {
    expect((await onHost(host, '/healthz')).status).toBe(200);
  });

  it('any other host is 404', async () => {
    const res = await onHost('elsewhere.example.net', '/healthz');
    expect(res.status).toBe(404);
    expect((await onHost('elsewhere.example.net', '/contact/thanks')).status).toBe(404);
  });
});

describe("Caddy's ask endpoint", () => {
  it('answers 200 on the internal listener for a serving domain', async () => {
    expect((await ask(DOMAIN)).status).toBe(200);
    expect((await ask(DOMAIN.toUpperCase())).status).toBe(200);
  });

  it('answers 404 for a claimed domain that never verified, an unknown one and nonsense', async () => {
    expect((await ask('pending.acme.test')).status).toBe(404);
    expect((await ask('nobody.example.com')).status).toBe(404);
    expect((await ask('')).status).toBe(404);
    expect((await ask('127.0.0.1')).status).toBe(404);
  });

  it('answers 404 for a domain verified less than 10 minutes ago, then 200', async () => {
    const fresh = 'fresh.acme.test';
    dns.setRecords(records(DOMAIN, OTHER_DOMAIN, fresh));
    await t.api.post('/api/domains', { domain: fresh });
    await t.api.post(`/api/domains/${fresh}/verify`);
    const form = await t.api.createForm({ name: 'Fresh' });
    await t.api.patch(`/api/forms/${form.id}`, { domain: fresh, slug: 'fresh' });
    // It serves at once; only the certificate waits (claim, verify, handshake, delete loops).
    expect((await onHost(fresh, '/fresh/thanks')).status).toBe(200);
    expect((await ask(fresh)).status).toBe(404);
    await verifiedAgo(fresh, 9);
    expect((await ask(fresh)).status).toBe(404);
    await verifiedAgo(fresh, 11);
    expect((await ask(fresh)).status).toBe(200);
  });

  it('answers 404 for a verified domain without an active form at a slug', async () => {
    const empty = 'empty.acme.test';
    dns.setRecords(records(DOMAIN, OTHER_DOMAIN, empty));
    await t.api.post('/api/domains', { domain: empty });
    await t.api.post(`/api/domains/${empty}/verify`);
    await verifiedAgo(empty, 60);
    expect((await ask(empty)).status).toBe(404);
    // A form on it without a slug is not served there.
    const form = await t.api.createForm({ name: 'Empty' });
    await t.api.patch(`/api/forms/${form.id}`, { domain: empty });
    expect((await ask(empty)).status).toBe(404);
    await t.api.patch(`/api/forms/${form.id}`, { slug: 'here', is_active: false });
    expect((await ask(empty)).status).toBe(404);
    await t.api.patch(`/api/forms/${form.id}`, { is_active: true });
    expect((await ask(empty)).status).toBe(200);
    dns.setRecords(records(DOMAIN, OTHER_DOMAIN));
  });

  it('is never on the public listener', async () => {
    const res = await request('GET', `${t.stack.url}/tls/ask?domain=${DOMAIN}`);
    expect(res.status).toBe(404);
    expect((await onHost(DOMAIN, `/tls/ask?domain=${DOMAIN}`)).status).toBe(404);
  });
});

describe('daily re-checks, the 72-hour grace and the owner mail', () => {
  const recheck = () => recheckDueDomains(t.stack.ctx.orm, t.stack.ctx.domainChecks);
  const makeDue = (interval: string) =>
    t.stack.sql(`update domains set last_checked_at = now() - ?::interval where domain = ?`, [
      interval,
      DOMAIN,
    ]);
  const statusOf = async () => {
    const res = await t.api.get(`/api/domains/${DOMAIN}`);
    return expectAnswer(res, 'GET /api/domains/{domain}', 200).domain;
  };
  const mailsAbout = () =>
    smtp.messages.filter((m) => m.raw.toString('utf8').includes(`${DOMAIN} stopped verifying`));

  it('a domain checked less than a day ago is not due', async () => {
    await recheck();
    expect((await statusOf()).last_error).toBeNull();
  });

  it('a failing check starts the grace: still served, the owner mailed once', async () => {
    dns.setRecords(records(OTHER_DOMAIN));
    await makeDue('25 hours');
    expect(await recheck()).toBe(1);
    const domain = await statusOf();
    expect(domain).toMatchObject({ status: 'failing', serving: true, verified: false });
    expect(Date.parse(domain.serving_until!) - Date.parse(domain.failing_since!)).toBe(
      72 * 3_600_000,
    );
    const [mail] = await eventually(async () => mailsAbout().length > 0 && mailsAbout());
    expect(mail!.rcptTo).toEqual([t.email]);
    expect((await onHost(DOMAIN, '/contact/thanks')).status).toBe(200);
    expect((await ask(DOMAIN)).status).toBe(200);
  });

  it('failing domains are checked again hourly; the owner is not mailed again', async () => {
    await makeDue('61 minutes');
    expect(await recheck()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsAbout()).toHaveLength(1);
  });

  it('past the grace it stops serving, while the form works on the ingest host', async () => {
    await t.stack.sql(
      `update domains set failing_since = now() - interval '73 hours' where domain = ?`,
      [DOMAIN],
    );
    expect(await statusOf()).toMatchObject({ status: 'stopped', serving: false });
    expect((await onHost(DOMAIN, '/contact/thanks')).status).toBe(404);
    expect((await postMessage(DOMAIN, '/contact', `https://${DOMAIN}`)).status).toBe(404);
    expect((await ask(DOMAIN)).status).toBe(404);
    const direct = await postMessage('127.0.0.1', `/f/${token}`, 'https://acme-site.test');
    expect(direct.status).toBe(302);
    // The other domain is untouched.
    expect((await onHost(OTHER_DOMAIN, '/hello/thanks')).status).toBe(200);
  });

  it('serves again as soon as a check passes', async () => {
    dns.setRecords(records(DOMAIN, OTHER_DOMAIN));
    await makeDue('61 minutes');
    expect(await recheck()).toBe(1);
    expect(await statusOf()).toMatchObject({
      status: 'verified',
      serving: true,
      failing_since: null,
    });
    expect((await onHost(DOMAIN, '/contact/thanks')).status).toBe(200);
    expect((await ask(DOMAIN)).status).toBe(200);
  });
});
