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
import { claimTxtValue } from '../../src/domain/domains/domain-check';

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
      claimed: false,
      method: null,
      points_at_target: false,
      records: {
        cname: { expected: '127.0.0.1', present: false, ok: false },
        address: { present: false, ok: false },
        txt: {
          name: '_formward.forms.example.invalid',
          expected: null,
          present: false,
          ok: false,
        },
      },
      present: [],
    });
    expect(body.missing).toHaveLength(2);
    expect(body.missing[0]).toMatch(/^claim forms\.example\.invalid in a Formward account/);
    expect(Date.parse(body.checked_at)).not.toBeNaN();
  });

  it("a claimed domain expects the claiming account's TXT value, stable and per domain", async () => {
    for (const domain of ['a.example.invalid', 'b.example.invalid'])
      expectAnswer(await t.api.post('/api/domains', { domain }), 'POST /api/domains', 201);
    const first = checkOf(await verify('?domain=a.example.invalid'));
    const again = checkOf(await verify('?domain=a.example.invalid'));
    const other = checkOf(await verify('?domain=b.example.invalid'));
    expect(first.claimed).toBe(true);
    expect(first.records.txt.expected).toMatch(/^formward-verification=[\w-]{32}$/);
    expect(first.records.txt.expected).toBe(again.records.txt.expected);
    expect(first.records.txt.expected).not.toBe(other.records.txt.expected);
    expect(first.records.txt.expected).toBe(
      claimTxtValue(t.stack.ctx.appSecret, t.accountId, 'a.example.invalid'),
    );
    // Never the account: neither its id nor anything of its people.
    expect(JSON.stringify(first)).not.toContain(t.email);
    expect(Object.keys(first)).not.toContain('account_id');
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
  const TARGET = 'ingest.formward.test';
  const TARGET_ADDRESS = '93.184.216.34';
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({});
  });
  afterAll(async () => {
    await dns?.close();
  });

  const dnsStack = useTestStack(() => ({
    env: { DNS_SERVERS: dns.address, INGEST_URL: `https://${TARGET}` },
  }));
  const verify = (domain: string) =>
    dnsStack.http.get(`/api/public/verify_domain?domain=${domain}`);
  const valueOf = (accountId: string, domain: string) =>
    claimTxtValue(dnsStack.stack.ctx.appSecret, accountId, domain);
  let other: Tenant;

  beforeAll(async () => {
    other = await dnsStack.newTenant();
    for (const domain of [
      'both.customer.test',
      'address.customer.test',
      'cname-only.customer.test',
      'foreign.customer.test',
      'elsewhere.customer.test',
      'later.customer.test',
      'unknown.customer.test',
    ])
      await dnsStack.api.post('/api/domains', { domain });
    const own = (domain: string) => [[valueOf(dnsStack.accountId, domain)]];
    dns.setRecords({
      [TARGET]: { A: [TARGET_ADDRESS] },
      'both.customer.test': { CNAME: TARGET },
      '_formward.both.customer.test': { TXT: [['v=spf1 -all'], ...own('both.customer.test')] },
      'address.customer.test': { A: [TARGET_ADDRESS] },
      '_formward.address.customer.test': { TXT: own('address.customer.test') },
      'cname-only.customer.test': { CNAME: TARGET },
      // The DNS shows the other account's value: it does not verify this account's claim.
      'foreign.customer.test': { CNAME: TARGET },
      '_formward.foreign.customer.test': {
        TXT: [[valueOf(other.accountId, 'foreign.customer.test')]],
      },
      'elsewhere.customer.test': { CNAME: 'other-service.example' },
      '_formward.elsewhere.customer.test': { TXT: own('elsewhere.customer.test') },
      // A private zone's answer, as a split-horizon resolver would give it.
      'private.customer.test': { A: ['10.20.30.40'], AAAA: ['fd00::15'] },
      '_formward.private.customer.test': { TXT: [['secret-txt-value']] },
      // Records right for an account, but nobody claimed the domain.
      'unclaimed.customer.test': { CNAME: TARGET },
      '_formward.unclaimed.customer.test': {
        TXT: [[valueOf(dnsStack.accountId, 'unclaimed.customer.test')]],
      },
    });
  });

  it("the claiming account's TXT and a CNAME to the target verify it", async () => {
    const body = checkOf(await verify('both.customer.test'));
    expect(body).toMatchObject({
      domain: 'both.customer.test',
      verified: true,
      method: 'cname',
      points_at_target: true,
    });
    expect(body.records.txt).toMatchObject({ present: true, ok: true });
    expect(body.records.cname).toEqual({ expected: TARGET, present: true, ok: true });
    expect(body.present).toHaveLength(2);
    expect(body.missing).toEqual([]);
  });

  it('A records with the addresses of the target work like the CNAME', async () => {
    const body = checkOf(await verify('address.customer.test'));
    expect(body).toMatchObject({ verified: true, method: 'address', points_at_target: true });
    expect(body.records.address).toEqual({ present: true, ok: true });
  });

  it('a CNAME without the TXT does not verify: the TXT is missing, the CNAME present', async () => {
    const body = checkOf(await verify('cname-only.customer.test'));
    expect(body).toMatchObject({ verified: false, method: 'cname' });
    expect(body.present).toEqual([expect.stringMatching(/^CNAME cname-only\.customer\.test/)]);
    expect(body.missing).toEqual([
      `add a TXT record on _formward.cname-only.customer.test with the value ${body.records.txt.expected}`,
    ]);
  });

  it("another account's TXT value does not verify, and the body names no account", async () => {
    const res = await verify('foreign.customer.test');
    const body = checkOf(res);
    expect(body.verified).toBe(false);
    expect(body.records.txt).toMatchObject({
      expected: valueOf(dnsStack.accountId, 'foreign.customer.test'),
      ok: false,
    });
    expect(res.text).not.toContain(dnsStack.email);
    expect(res.text).not.toContain(other.email);
  });

  it('a CNAME to another host does not verify', async () => {
    const body = checkOf(await verify('elsewhere.customer.test'));
    expect(body).toMatchObject({ verified: false, method: null, points_at_target: false });
    expect(body.records.cname).toEqual({ expected: TARGET, present: true, ok: false });
    expect(body.missing.join(' ')).toContain(`CNAME ${TARGET}`);
  });

  it('records right for an account do not verify a domain nobody claimed', async () => {
    const body = checkOf(await verify('unclaimed.customer.test'));
    expect(body).toMatchObject({ verified: false, claimed: false, method: 'cname' });
  });

  it('the answer holds none of the values found: no address, CNAME target or TXT value', async () => {
    const answers = [];
    for (const domain of ['private.customer.test', 'elsewhere.customer.test', 'both.customer.test'])
      answers.push((await verify(domain)).text);
    const internal = checkOf(await verify('private.customer.test'));
    expect(internal.records).toMatchObject({
      cname: { present: false, ok: false },
      address: { present: true, ok: false },
      txt: { present: true, ok: false },
    });
    expect(internal.points_at_target).toBe(false);
    for (const text of answers)
      for (const found of [
        '10.20.30.40',
        'fd00::15',
        TARGET_ADDRESS,
        'other-service.example',
        'v=spf1',
        'secret-txt-value',
      ])
        expect(text).not.toContain(found);
  });

  it('a result is kept 30 s: a record added meanwhile shows up only after that', async () => {
    const first = await verify('later.customer.test');
    expect(checkOf(first).verified).toBe(false);
    dns.setRecords({
      'later.customer.test': { CNAME: TARGET },
      '_formward.later.customer.test': {
        TXT: [[valueOf(dnsStack.accountId, 'later.customer.test')]],
      },
    });
    const again = await verify('later.customer.test');
    expect(checkOf(again)).toMatchObject({
      verified: false,
      checked_at: checkOf(first).checked_at,
    });
  });

  it('a name the DNS does not know → 200, not verified, no error', async () => {
    const body = checkOf(await verify('unknown.customer.test'));
    expect(body.verified).toBe(false);
    expect(body).not.toHaveProperty('error');
  });
});

describe('GET /api/public/verify_domain is limited per client network', () => {
  // One trusted proxy hop: X-Forwarded-For gives each request its client address.
  const limited = useTestStack({ env: { TRUST_PROXY: 'loopback' } });
  const from = (address: string, domain: string) =>
    limited.http.get(`/api/public/verify_domain?domain=${domain}`, {
      headers: { 'x-forwarded-for': address },
    });

  it('DNS_CHECK_RATE_NETWORK (20) checks a minute, then 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 20; i++)
      expect((await from('203.0.113.7', `n${i}.local`)).status).toBe(422);
    const res = await from('203.0.113.7', 'forms.example.com');
    expect(expectError(res, 429, 'rate_limited').message).toContain('DNS_CHECK_RATE_NETWORK');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another IPv4 address has its own budget.
    expect((await from('203.0.113.8', 'n0.local')).status).toBe(422);
  });

  it('the addresses of one IPv6 /64 share one budget; another /64 has its own', async () => {
    for (let i = 0; i < 20; i++)
      expect((await from(`2001:db8:1:1::${i + 1}`, `n${i}.local`)).status).toBe(422);
    expectError(await from('2001:db8:1:1:ffff::1', 'n0.local'), 429, 'rate_limited');
    expect((await from('2001:db8:1:2::1', 'n0.local')).status).toBe(422);
  });
});

describe('GET /api/public/verify_domain shares the instance budget', () => {
  const limited = useTestStack({
    env: { TRUST_PROXY: 'loopback', DNS_CHECK_RATE_INSTANCE: '3', DNS_CHECK_RATE_NETWORK: '0' },
  });

  it('past DNS_CHECK_RATE_INSTANCE checks a minute from any networks: 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await limited.http.get('/api/public/verify_domain?domain=n.local', {
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      expect(res.status).toBe(422);
    }
    const res = await limited.http.get('/api/public/verify_domain?domain=n.local', {
      headers: { 'x-forwarded-for': '198.51.100.200' },
    });
    expect(expectError(res, 429, 'rate_limited').message).toContain('DNS_CHECK_RATE_INSTANCE');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
