import { Resolver } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver, normalizeDomain } from '../../src/domain/domains/verify-domain';
import { startDnsServer, type DnsServer } from '../support/dns-server';

describe('the test DNS server, through createResolver', () => {
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({});
  });
  afterAll(() => dns.close());

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

describe('normalizeDomain', () => {
  it.each([
    ['forms.example.com', 'forms.example.com'],
    ['  Forms.Example.COM.  ', 'forms.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['ÄÖ.de', 'xn--4ca0b.de'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['XN--BCHER-KVA.example', 'xn--bcher-kva.example'],
    ['xn--ls8h.example', 'xn--ls8h.example'],
    ['xn--fa-hia.de', 'xn--fa-hia.de'],
    ['forms.xn--nxa.example', 'forms.xn--nxa.example'],
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
    // `xn--` labels: the same answer on every Node version (decoded by src/domain/domains/punycode.ts).
    ['xn--zz.com', 'not allowed in a domain name'], // not Punycode: ends inside a number
    ['forms.xn--zz.bücher.example', 'not allowed in a domain name'],
    ['xn--.com', 'not allowed in a domain name'], // decodes to nothing
    ['xn---abc.com', 'not allowed in a domain name'], // a hyphen is no Punycode digit
    ['xn--abc-.com', 'not allowed in a domain name'], // decodes to "abc", all ASCII
    ['xn--7ba.com', 'not allowed in a domain name'], // "Ä", which IDNA maps to "ä" (xn--4ca)
    ['xn--bcher-2pa.com', 'not allowed in a domain name'], // "bÜcher"
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
