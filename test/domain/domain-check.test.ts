import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomain, claimTxtValue, requiredRecords } from '../../src/domain/domains/domain-check';
import type { DnsResolver } from '../../src/domain/domains/resolver-type';
import { createResolver } from '../../src/domain/domains/verify-domain';
import { startDnsServer, type DnsServer } from '../support/dns-server';

const appSecret = 'test-app-secret';
const target = 'pages.formward.test';
const TARGET_ADDRESS = '93.184.216.34';
const value = (domain: string, account = '7') => claimTxtValue(appSecret, account, domain);

describe('claimTxtValue', () => {
  it('is 32 base64url characters after the prefix, per account and per domain', () => {
    const own = value('forms.example.com');
    expect(own).toMatch(/^formward-verification=[\w-]{32}$/);
    expect(value('forms.example.com')).toBe(own);
    expect(value('forms.example.com', '8')).not.toBe(own);
    expect(value('other.example.com')).not.toBe(own);
    expect(claimTxtValue('other-secret', '7', 'forms.example.com')).not.toBe(own);
  });
});

describe('requiredRecords', () => {
  it('a TXT on _formward.{domain} and a CNAME to the target (an A record for an IP target)', () => {
    expect(requiredRecords('forms.example.com', 'v', target)).toEqual([
      { type: 'TXT', name: '_formward.forms.example.com', value: 'v' },
      { type: 'CNAME', name: 'forms.example.com', value: target },
    ]);
    expect(requiredRecords('forms.example.com', 'v', '203.0.113.5')[1]).toEqual({
      type: 'A',
      name: 'forms.example.com',
      value: '203.0.113.5',
    });
  });
});

describe('checkDomain against a real DNS server', () => {
  let dns: DnsServer;
  const check = (domain: string, expectedTxt: string | null = value(domain)) =>
    checkDomain(domain, { resolver: createResolver([dns.address]), target, expectedTxt });

  beforeAll(async () => {
    dns = await startDnsServer({
      [target]: { A: [TARGET_ADDRESS] },
      'both.example.test': { CNAME: 'PAGES.formward.test.' },
      '_formward.both.example.test': { TXT: [['v=spf1 -all'], [value('both.example.test')]] },
      'address.example.test': { A: [TARGET_ADDRESS] },
      '_formward.address.example.test': { TXT: [[`"${value('address.example.test')}"`]] },
      'cname-only.example.test': { CNAME: target },
      '_formward.txt-only.example.test': { TXT: [[value('txt-only.example.test')]] },
      'txt-only.example.test': { A: ['198.51.100.1'] },
      'mixed.example.test': { A: [TARGET_ADDRESS, '198.51.100.1'] },
      '_formward.mixed.example.test': { TXT: [[value('mixed.example.test')]] },
      'split.example.test': { CNAME: target },
      '_formward.split.example.test': {
        TXT: [[value('split.example.test').slice(0, 10), value('split.example.test').slice(10)]],
      },
    });
  });
  afterAll(() => dns.close());

  it('verifies the TXT value with a CNAME to the target (case and trailing dot ignored)', async () => {
    const result = await check('both.example.test');
    expect(result).toMatchObject({
      domain: 'both.example.test',
      verified: true,
      claimed: true,
      method: 'cname',
      points_at_target: true,
      records: {
        cname: { expected: target, present: true, ok: true },
        txt: { name: '_formward.both.example.test', present: true, ok: true },
      },
      missing: [],
    });
    expect(result.present).toHaveLength(2);
    expect(result).not.toHaveProperty('error');
  });

  it('verifies the TXT value (quotes pasted along ignored) with A records of the target', async () => {
    const result = await check('address.example.test');
    expect(result).toMatchObject({
      verified: true,
      method: 'address',
      records: { address: { present: true, ok: true } },
    });
  });

  it('joins the character-strings of one TXT record', async () => {
    expect((await check('split.example.test')).verified).toBe(true);
  });

  it('a CNAME alone does not verify: the TXT is missing', async () => {
    const result = await check('cname-only.example.test');
    expect(result).toMatchObject({ verified: false, method: 'cname' });
    expect(result.present).toEqual([expect.stringContaining('CNAME')]);
    expect(result.missing).toEqual([
      `add a TXT record on _formward.cname-only.example.test with the value ${value('cname-only.example.test')}`,
    ]);
  });

  it('a TXT alone does not verify: the domain points elsewhere', async () => {
    const result = await check('txt-only.example.test');
    expect(result).toMatchObject({ verified: false, method: null });
    expect(result.records.address).toEqual({ present: true, ok: false });
    expect(result.points_at_target).toBe(false);
    expect(result.missing).toEqual([
      `add a CNAME record: txt-only.example.test CNAME ${target}, or A/AAAA records with the addresses of ${target}`,
    ]);
  });

  it('says what is present and right, never the addresses, CNAME targets or TXT values found', async () => {
    for (const domain of ['both.example.test', 'txt-only.example.test', 'mixed.example.test']) {
      const text = JSON.stringify(await check(domain, value(domain, '8')));
      for (const found of [TARGET_ADDRESS, '198.51.100.1', 'PAGES.formward.test', 'v=spf1'])
        expect(text).not.toContain(found);
      expect(text).not.toContain(value(domain));
    }
  });

  it('addresses only partly the target do not verify', async () => {
    expect((await check('mixed.example.test')).records.address.ok).toBe(false);
  });

  it("another account's value does not verify", async () => {
    const result = await check('both.example.test', value('both.example.test', '8'));
    expect(result.verified).toBe(false);
    expect(result.records.txt).toMatchObject({ present: true, ok: false });
  });

  it('an unclaimed domain never verifies, and the body says to claim it', async () => {
    const result = await check('both.example.test', null);
    expect(result).toMatchObject({
      verified: false,
      claimed: false,
      records: { txt: { expected: null, ok: false } },
    });
    expect(result.missing[0]).toMatch(/^claim both\.example\.test/);
  });

  it('a name that does not exist is "not found", not an error', async () => {
    const result = await check('absent.example.test');
    expect(result.verified).toBe(false);
    expect(result.missing).toHaveLength(2);
    expect(result).not.toHaveProperty('error');
  });
});

describe('checkDomain when the resolver fails', () => {
  const fail = (code: string) => async (): Promise<never> => {
    throw Object.assign(new Error(`query ${code}`), { code });
  };

  it('reports SERVFAIL and timeouts as an error, not as verified', async () => {
    const resolver: DnsResolver = {
      resolveCname: fail('ESERVFAIL'),
      resolveTxt: fail('ETIMEOUT'),
      resolve4: fail('ESERVFAIL'),
      resolve6: fail('ESERVFAIL'),
    };
    const result = await checkDomain('flaky.example.test', {
      resolver,
      target,
      expectedTxt: value('flaky.example.test'),
    });
    expect(result.verified).toBe(false);
    expect(result.error).toContain('CNAME flaky.example.test lookup failed (ESERVFAIL)');
    expect(result.error).toContain('TXT _formward.flaky.example.test lookup failed (ETIMEOUT)');
  });

  it('still verifies when an unneeded lookup fails', async () => {
    const resolver: DnsResolver = {
      resolveCname: async () => [target],
      resolveTxt: async () => [[value('flaky.example.test')]],
      resolve4: fail('ESERVFAIL'),
      resolve6: fail('ESERVFAIL'),
    };
    const result = await checkDomain('flaky.example.test', {
      resolver,
      target,
      expectedTxt: value('flaky.example.test'),
    });
    expect(result).toMatchObject({ verified: true, method: 'cname', missing: [] });
    expect(result).not.toHaveProperty('error');
  });
});
