import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectValidationError,
  expectAnswer,
  type ApiResponse,
} from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack, type Tenant } from '../support/fixture';
import { submitForm, submitJson } from '../support/ingest-requests';
import { verificationToken } from '../../src/domain/domains/verify-domain';

const t = useTestStack();
const tenants: Tenant[] = [];
const tokens: string[] = [];

const metricsOf = (res: ApiResponse) => expectAnswer(res, 'GET /api/public/spam_metrics', 200);
const checkOf = (res: ApiResponse) => expectAnswer(res, 'GET /api/public/verify_domain', 200);

beforeAll(async () => {
  const other = await t.newTenant();
  tenants.push(t, other);
  const alpha = await t.api.createForm({ name: 'Alpha' });
  const beta = await other.api.createForm({ name: 'Beta' });
  tokens.push(alpha.endpoint_token, beta.endpoint_token);
  await submitJson(alpha, { email: 'real@customer.example', message: 'hi' });
  await submitForm(alpha, { message: 'also real', _hp: '' });
  await submitForm(alpha, { message: 'spam one', _hp: 'bot' });
  await submitJson(alpha, { message: 'spam two', _hp: 'bot' });
  await submitJson(beta, { email: 'spammer@bots.example', _hp: 'yes' });
});

/** Every key of a JSON value, nested ones included. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  return [];
}

describe('GET /api/public/spam_metrics', () => {
  let res: ApiResponse;

  beforeAll(async () => {
    res = await t.http.get('/api/public/spam_metrics');
  });

  it('answers without authentication', () => {
    expect(metricsOf(res).ok).toBe(true);
  });

  it('counts all submissions and spam, platform-wide', () => {
    const window = { submissions: 5, spam: 3, spam_ratio: 0.6 };
    expect(metricsOf(res).all_time).toEqual(window);
    expect(metricsOf(res).last_24h).toEqual(window);
    expect(metricsOf(res).last_7d).toEqual(window);
  });

  it('breaks spam down by reason', () => {
    expect(metricsOf(res).by_reason).toEqual({ honeypot: 3 });
  });

  it('reveals no account, form, token, e-mail or address', () => {
    const keys = allKeys(metricsOf(res));
    for (const key of keys) expect(key).not.toMatch(/account|form|token|email|ip|user/i);
    for (const token of tokens) expect(res.text).not.toContain(token);
    for (const tenant of tenants) expect(res.text).not.toContain(tenant.email);
    expect(res.text).not.toContain('customer.example');
    expect(res.text).not.toContain('bots.example');
  });

  it('is cacheable', () => {
    expect(res.headers.get('cache-control')).toMatch(/public/);
  });

  it('is computed at most once a minute: a new submission shows up only after that', async () => {
    await submitJson({ json_url: `${t.stack.url}/json/${tokens[0]}` }, { message: 'one more' });
    const again = await t.http.get('/api/public/spam_metrics');
    expect(metricsOf(again).generated_at).toBe(metricsOf(res).generated_at);
    expect(metricsOf(again).all_time.submissions).toBe(5);
  });

  it('ignores credentials, even invalid ones', async () => {
    const withBadKey = await t.http.get('/api/public/spam_metrics', {
      key: 'frk_invalid',
    });
    expect(metricsOf(withBadKey).all_time.spam).toBe(3);
  });

  it('POST → 405 with Allow: GET', async () => {
    const post = await t.http.send('POST', '/api/public/spam_metrics');
    expectError(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('GET /api/public/verify_domain', () => {
  const verify = (query: string, client = t.http) =>
    client.get(`/api/public/verify_domain${query}`);

  it('without domain → 422 validation_failed', async () => {
    expectValidationError(await verify(''), 'domain');
    expectValidationError(await verify('?domain='), 'domain');
  });

  it.each([
    'https://forms.example.com/',
    'forms.example.com/path',
    'not a domain',
    '127.0.0.1',
    'localhost',
    '-bad-.example.com',
    `${'a'.repeat(64)}.example.com`,
    'user@example.com',
    'intranet',
    'forms.local',
    'printer.internal',
    'app.localhost',
    'router.home.arpa',
    '1.0.0.127.in-addr.arpa',
    'nas.lan',
  ])('an invalid or internal domain %j → 422', async (domain) => {
    expectValidationError(await verify(`?domain=${encodeURIComponent(domain)}`), 'domain');
  });

  it('a valid domain that does not exist → 200, not verified, with what to set up', async () => {
    const res = await verify('?domain=Forms.Example.INVALID.');
    const body = checkOf(res);
    expect(body).toMatchObject({
      ok: true,
      domain: 'forms.example.invalid',
      verified: false,
      method: null,
      records: {
        cname: { expected: '127.0.0.1', found: [], ok: false },
        txt: { found: [], ok: false },
      },
    });
    expect(body.records.txt.expected).toMatch(/^formward-verification=[\w-]{32}$/);
    expect(body.missing).toHaveLength(2);
    expect(Date.parse(body.checked_at)).not.toBeNaN();
  });

  it('the expected TXT value is stable per domain and differs between domains', async () => {
    const first = await verify('?domain=a.example.invalid');
    const again = await verify('?domain=a.example.invalid');
    const other = await verify('?domain=b.example.invalid');
    expect(checkOf(first).records.txt.expected).toBe(checkOf(again).records.txt.expected);
    expect(checkOf(first).records.txt.expected).not.toBe(checkOf(other).records.txt.expected);
  });

  describe('with a DNS server that cannot be reached', () => {
    const unreachable = useTestStack({ env: { DNS_SERVERS: '127.0.0.1:9' } });

    it('a DNS failure is reported in the body, not as a server error', async () => {
      const res = await verify('?domain=forms.example.com', unreachable.http);
      const body = checkOf(res);
      expect(body.verified).toBe(false);
      expect(body.error).toMatch(/ECONNREFUSED|ETIMEOUT|ESERVFAIL/);
    });
  });
});

describe('GET /api/public/verify_domain against real DNS answers', () => {
  const INGEST_HOST = 'ingest.formward.test';
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({});
  });
  afterAll(async () => {
    await dns?.close();
  });

  const dnsStack = useTestStack(() => ({
    env: { DNS_SERVERS: dns.address, INGEST_URL: `https://${INGEST_HOST}` },
  }));
  const verify = (domain: string) =>
    dnsStack.http.get(`/api/public/verify_domain?domain=${domain}`);
  const expectedTxt = async (domain: string): Promise<string> =>
    `formward-verification=${verificationToken(domain, dnsStack.stack.ctx.appSecret)}`;

  beforeAll(async () => {
    dns.setRecords({
      'apex.customer.test': {
        TXT: [[await expectedTxt('apex.customer.test')]],
      },
      '_formward.sub.customer.test': {
        TXT: [['v=spf1 -all'], [await expectedTxt('sub.customer.test')]],
      },
      'sub.customer.test': { A: ['93.184.216.34'] },
      'alias.customer.test': { CNAME: INGEST_HOST },
      'wrong.customer.test': {
        TXT: [['formward-verification=not-the-token']],
        A: ['93.184.216.34'],
      },
      'elsewhere.customer.test': { CNAME: 'other-service.example' },
    });
  });

  it('a TXT record on the domain verifies it', async () => {
    const res = await verify('apex.customer.test');
    const body = checkOf(res);
    expect(body).toMatchObject({ domain: 'apex.customer.test', verified: true, method: 'txt' });
    expect(body.records.txt.ok).toBe(true);
    expect(body.records.txt.found).toEqual([body.records.txt.expected]);
    expect(body.missing).toEqual([]);
  });

  it('a TXT record on _formward.<domain> verifies it, among other TXT records', async () => {
    const res = await verify('sub.customer.test');
    const body = checkOf(res);
    expect(body).toMatchObject({ verified: true, method: 'txt' });
    expect(body.records.txt.found).toContain('v=spf1 -all');
  });

  it('a CNAME to the ingest host verifies it', async () => {
    const res = await verify('alias.customer.test');
    const body = checkOf(res);
    expect(body).toMatchObject({ verified: true, method: 'cname' });
    expect(body.records.cname).toEqual({
      expected: INGEST_HOST,
      found: [INGEST_HOST],
      ok: true,
    });
  });

  it('a wrong TXT value does not verify, and the body shows what was found', async () => {
    const res = await verify('wrong.customer.test');
    const body = checkOf(res);
    expect(body).toMatchObject({ verified: false, method: null });
    expect(body.records.txt).toMatchObject({
      found: ['formward-verification=not-the-token'],
      ok: false,
    });
    expect(body.missing.join(' ')).toContain(body.records.txt.expected);
  });

  it('a CNAME to another host does not verify', async () => {
    const res = await verify('elsewhere.customer.test');
    const body = checkOf(res);
    expect(body.verified).toBe(false);
    expect(body.records.cname).toEqual({
      expected: INGEST_HOST,
      found: ['other-service.example'],
      ok: false,
    });
  });

  it('a result is kept 30 s: a record added meanwhile shows up only after that', async () => {
    const first = await verify('later.customer.test');
    expect(checkOf(first).verified).toBe(false);
    dns.setRecords({ 'later.customer.test': { CNAME: INGEST_HOST } });
    const again = await verify('later.customer.test');
    expect(checkOf(again)).toMatchObject({
      verified: false,
      checked_at: checkOf(first).checked_at,
    });
  });

  it('a name the DNS does not know → 200, not verified, no error', async () => {
    const res = await verify('unknown.customer.test');
    const body = checkOf(res);
    expect(body.verified).toBe(false);
    expect(body).not.toHaveProperty('error');
  });
});

describe('GET /api/public/verify_domain is limited per client address', () => {
  const limited = useTestStack();

  it('20 checks a minute, then 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await limited.http.get(`/api/public/verify_domain?domain=n${i}.local`);
      expect(res.status).toBe(422);
    }
    const res = await limited.http.get('/api/public/verify_domain?domain=forms.example.com');
    expectError(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
