import { Resolver } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createResolver,
  normalizeDomain,
  verificationToken,
  verifyDomain,
  type VerificationResolver,
} from '../../src/domain/domains/verify-domain';
import { startDnsServer, type DnsServer } from '../support/dns-server';

const appSecret = 'test-app-secret';
const ingestHost = 'ingest.formward.test';
const expectedTxt = (domain: string) =>
  `formward-verification=${verificationToken(domain, appSecret)}`;

describe('verificationToken', () => {
  it('is deterministic, 32 base64url characters, and the same for every spelling', () => {
    const token = verificationToken('forms.example.com', appSecret);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(verificationToken(' Forms.Example.COM. ', appSecret)).toBe(token);
    expect(verificationToken('forms.example.com', 'other-secret')).not.toBe(token);
    expect(verificationToken('other.example.com', appSecret)).not.toBe(token);
  });
});

describe('verifyDomain against a real DNS server', () => {
  let dns: DnsServer;
  const options = () => ({ resolver: createResolver([dns.address]), ingestHost, appSecret });

  beforeAll(async () => {
    dns = await startDnsServer({
      'cname.example.test': { CNAME: 'INGEST.formward.test.' },
      'ingest.formward.test': { A: ['93.184.216.34'] },
      'apex.example.test': { TXT: [['v=spf1 -all'], [expectedTxt('apex.example.test')]] },
      'sub.example.test': { A: ['93.184.216.34'] },
      '_formward.sub.example.test': { TXT: [[expectedTxt('sub.example.test')]] },
      'split.example.test': {
        TXT: [
          [
            expectedTxt('split.example.test').slice(0, 10),
            expectedTxt('split.example.test').slice(10),
          ],
        ],
      },
      'wrong.example.test': {
        CNAME: 'elsewhere.example.net',
      },
      '_formward.wrong.example.test': { TXT: [['formward-verification=not-the-token']] },
      'bare.example.test': { A: ['93.184.216.34'] },
    });
  });

  afterAll(() => dns.close());

  it('verifies a CNAME to the ingest host (case and trailing dot ignored)', async () => {
    const result = await verifyDomain('cname.example.test', options());
    expect(result).toMatchObject({
      domain: 'cname.example.test',
      verified: true,
      method: 'cname',
      records: { cname: { expected: ingestHost, found: ['INGEST.formward.test'], ok: true } },
      missing: [],
    });
    expect(result).not.toHaveProperty('error');
    expect(new Date(result.checked_at).toISOString()).toBe(result.checked_at);
  });

  it('verifies a TXT record on the domain itself', async () => {
    const result = await verifyDomain('apex.example.test', options());
    expect(result).toMatchObject({
      verified: true,
      method: 'txt',
      records: {
        cname: { found: [], ok: false },
        txt: {
          expected: expectedTxt('apex.example.test'),
          found: ['v=spf1 -all', expectedTxt('apex.example.test')],
          ok: true,
        },
      },
      missing: [],
    });
  });

  it('verifies a TXT record on _formward.<domain>', async () => {
    const result = await verifyDomain('sub.example.test', options());
    expect(result).toMatchObject({
      verified: true,
      method: 'txt',
      records: { txt: { found: [expectedTxt('sub.example.test')], ok: true } },
    });
  });

  it('joins the character-strings of one TXT record', async () => {
    const result = await verifyDomain('split.example.test', options());
    expect(result.verified).toBe(true);
    expect(result.records.txt.found).toEqual([expectedTxt('split.example.test')]);
  });

  it('lists both ways to verify when neither record exists', async () => {
    const result = await verifyDomain('bare.example.test', options());
    expect(result).toMatchObject({
      domain: 'bare.example.test',
      verified: false,
      method: null,
      records: {
        cname: { expected: ingestHost, found: [], ok: false },
        txt: { expected: expectedTxt('bare.example.test'), found: [], ok: false },
      },
    });
    expect(result.missing).toEqual([
      `add a CNAME record: bare.example.test CNAME ${ingestHost}`,
      `or add a TXT record on _formward.bare.example.test (or on bare.example.test itself) with the value ${expectedTxt('bare.example.test')}`,
    ]);
    expect(result).not.toHaveProperty('error');
  });

  it('treats a name that does not exist as "not found", not as an error', async () => {
    const result = await verifyDomain('absent.example.test', options());
    expect(result.verified).toBe(false);
    expect(result.missing).toHaveLength(2);
    expect(result).not.toHaveProperty('error');
  });

  it('does not verify a CNAME elsewhere or a TXT with the wrong value', async () => {
    const result = await verifyDomain('wrong.example.test', options());
    expect(result).toMatchObject({
      verified: false,
      method: null,
      records: {
        cname: { found: ['elsewhere.example.net'], ok: false },
        txt: { found: ['formward-verification=not-the-token'], ok: false },
      },
    });
    expect(result.missing).toHaveLength(2);
  });

  it('sees records change between checks', async () => {
    dns.setRecords({ 'later.example.test': { TXT: [[expectedTxt('later.example.test')]] } });
    expect((await verifyDomain('later.example.test', options())).verified).toBe(true);
    dns.setRecords({});
    expect((await verifyDomain('later.example.test', options())).verified).toBe(false);
  });

  it('answers NXDOMAIN for unknown names and NODATA for missing types', async () => {
    dns.setRecords({ 'known.example.test': { A: ['93.184.216.34'] } });
    const resolver = createResolver([dns.address]);
    await expect(resolver.resolve4('KNOWN.example.test')).resolves.toEqual(['93.184.216.34']);
    await expect(resolver.resolveTxt('known.example.test')).rejects.toMatchObject({
      code: 'ENODATA',
    });
    await expect(resolver.resolve4('unknown.example.test')).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('answers long TXT values split into 255-byte chunks', async () => {
    // 300 bytes: long enough to split, short enough for a 512-byte UDP answer (no TCP here).
    const long = 'x'.repeat(300);
    dns.setRecords({ 'long.example.test': { TXT: [[long]] } });
    const records = await createResolver([dns.address]).resolveTxt('long.example.test');
    expect(records).toEqual([['x'.repeat(255), 'x'.repeat(45)]]);
  });
});

describe('verifyDomain when the resolver fails', () => {
  const failing = (code: string): VerificationResolver => ({
    resolveCname: async () => {
      throw Object.assign(new Error(`queryCname ${code}`), { code });
    },
    resolveTxt: async (host) => {
      if (host.startsWith('_formward.')) return [[expectedTxt('flaky.example.test')]];
      throw Object.assign(new Error(`queryTxt ${code}`), { code });
    },
  });

  it('reports SERVFAIL and timeouts as an error, not as verified', async () => {
    const resolver: VerificationResolver = {
      resolveCname: failing('ESERVFAIL').resolveCname,
      resolveTxt: async () => {
        throw Object.assign(new Error('queryTxt ETIMEOUT'), { code: 'ETIMEOUT' });
      },
    };
    const result = await verifyDomain('flaky.example.test', { resolver, ingestHost, appSecret });
    expect(result.verified).toBe(false);
    expect(result.error).toBe(
      'CNAME flaky.example.test lookup failed (ESERVFAIL); TXT flaky.example.test lookup failed (ETIMEOUT); TXT _formward.flaky.example.test lookup failed (ETIMEOUT)',
    );
    expect(result.missing).toHaveLength(2);
  });

  it('still verifies when one lookup fails but another proves control', async () => {
    const result = await verifyDomain('flaky.example.test', {
      resolver: failing('ESERVFAIL'),
      ingestHost,
      appSecret,
    });
    expect(result).toMatchObject({ verified: true, method: 'txt', missing: [] });
    expect(result).not.toHaveProperty('error');
  });
});

describe('normalizeDomain', () => {
  it.each([
    ['forms.example.com', 'forms.example.com'],
    ['  Forms.Example.COM.  ', 'forms.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['ÄÖ.de', 'xn--4ca0b.de'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('%j -> %j', (input, domain) => {
    expect(normalizeDomain(input)).toEqual({ ok: true, domain });
  });

  it.each([
    ['', 'is required'],
    ['https://forms.example.com', 'no scheme'],
    ['forms.example.com/contact', 'no scheme'],
    ['forms.example.com:443', 'no scheme'],
    ['user@forms.example.com', 'no scheme'],
    ['forms example.com', 'no scheme'],
    ['93.184.216.34', 'an IP address'],
    ['[::1]', 'an IP address'],
    ['2606:4700::1111', 'an IP address'],
    ['0x7f.1', 'an IP address'],
    ['localhost', 'at least two labels'],
    ['example', 'at least two labels'],
    [`${'a'.repeat(64)}.com`, 'longer than 63'],
    [`${'a.'.repeat(127)}com`, 'longer than 253'],
    ['a..example.com', 'labels may only hold'],
    ['-a.example.com', 'labels may only hold'],
    ['a-.example.com', 'labels may only hold'],
    ['under_score.example.com', 'labels may only hold'],
    ['*.example.com', 'labels may only hold'],
    ['exa%mple.com', 'not allowed in a domain name'],
    ['xn--zz.com', 'not allowed in a domain name'],
  ])('rejects %j (%s)', (input, message) => {
    const result = normalizeDomain(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(message);
  });
});

describe('createResolver', () => {
  it('accepts host, host:port and [ipv6]:port servers', () => {
    const resolver = createResolver(['127.0.0.1', '127.0.0.1:5353', '[::1]:5353', '::1']);
    expect(resolver.getServers()).toEqual(['127.0.0.1', '127.0.0.1:5353', '[::1]:5353', '::1']);
  });

  it('uses the system servers when none are given', () => {
    expect(createResolver([]).getServers()).toEqual(new Resolver().getServers());
  });

  it('explains a server that is not an IP address', () => {
    expect(() => createResolver(['dns.example.com'])).toThrow(/DNS_SERVERS: .* IP addresses/);
  });
});
