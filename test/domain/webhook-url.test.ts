import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/domain/domains/verify-domain';
import { parseAllowList } from '../../src/outbound/address-policy';
import {
  assertDialAllowed,
  BlockedAddressError,
  validateWebhookUrl,
  type HostLookup,
} from '../../src/outbound/destination-url';
import { startDnsServer, type DnsServer } from '../support/dns-server';

const allowList = parseAllowList([]);

/** A lookup that answers from a table and fails the test if asked about anything else. */
function tableLookup(table: Record<string, string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    if (!(host in table))
      throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return table[host]!;
  };
  return Object.assign(lookup, { asked });
}

const neverLookup: HostLookup = async (host) => {
  throw new Error(`no DNS lookup expected, got ${host}`);
};

const check = (url: unknown, lookup: HostLookup = neverLookup, list = allowList) =>
  validateWebhookUrl(url, { allowList: list, lookup });

describe('validateWebhookUrl: the URL itself', () => {
  it.each([
    [
      'http://hooks.example.com/x',
      'url: must use https:// (plain HTTP and other schemes are rejected)',
    ],
    ['HTTP://hooks.example.com/x', 'plain HTTP'],
    ['ftp://hooks.example.com/x', 'must use https://'],
    ['ws://hooks.example.com/x', 'must use https://'],
    ['javascript:alert(1)', 'must use https://'],
    ['file:///etc/passwd', 'must use https://'],
    ['/relative/path', 'url: must be an absolute URL'],
    ['hooks.example.com/x', 'url: must be an absolute URL'],
    ['https://', 'url: must be an absolute URL'],
    ['', 'url: is required'],
    ['   ', 'url: is required'],
    [42, 'url: must be a string'],
    [null, 'url: must be a string'],
    [`https://hooks.example.com/${'a'.repeat(2030)}`, 'url: must be at most 2048 characters'],
    ['https://user:secret@hooks.example.com/x', 'url: must not contain credentials'],
    ['https://user@hooks.example.com/x', 'url: must not contain credentials'],
    ['https://:secret@hooks.example.com/x', 'url: must not contain credentials'],
  ])('rejects %j', async (url, message) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.join('\n')).toContain(message);
  });

  it('reports every static problem at once, without resolving anything', async () => {
    const result = await check('http://admin:pw@localhost/hook');
    expect(result).toEqual({
      ok: false,
      errors: [
        'url: must use https:// (plain HTTP and other schemes are rejected)',
        'url: must not contain credentials (user:password@)',
        'url: host localhost is an internal name',
      ],
    });
  });

  it('accepts exactly 2048 characters', async () => {
    const url = `https://93.184.216.34/${'a'.repeat(2048 - 'https://93.184.216.34/'.length)}`;
    expect(url).toHaveLength(2048);
    expect(await check(url)).toEqual({ ok: true, url });
  });
});

describe('validateWebhookUrl: internal names', () => {
  it.each([
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://localhost:8443/hook',
    'https://api.localhost/hook',
    'https://localhost.localdomain/hook',
    'https://printer.local/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://nas.home.arpa/hook',
    'https://intranet/hook',
    'https://intranet./hook',
  ])('rejects %s without resolving it', async (url) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^url: host .+ is an internal name$/);
  });
});

describe('validateWebhookUrl: literal addresses', () => {
  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.1/hook', 'loopback'],
    ['https://0x7f.0.0.1/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://10.0.0.8:8443/hook', 'private'],
    ['https://172.20.1.1/hook', 'private'],
    ['https://192.168.0.1/hook', 'private'],
    ['https://100.100.100.200/hook', 'carrier-grade NAT'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[0:0:0:0:0:0:0:1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback, IPv4-mapped'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'cloud metadata'],
    ['https://[fd00::1]/hook', 'unique-local'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://[64:ff9b::10.0.0.1]/hook', 'private, NAT64'],
  ])('rejects %s (%s)', async (url, reason) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^url: address \S+ is not public/);
    expect(!result.ok && result.errors[0]).toContain(reason);
  });

  it.each([
    ['https://93.184.216.34/hook', 'https://93.184.216.34/hook'],
    ['https://[2606:4700::1111]:8443/hook?x=1', 'https://[2606:4700::1111]:8443/hook?x=1'],
    ['https://[::ffff:93.184.216.34]/hook', 'https://[::ffff:5db8:d822]/hook'],
  ])('accepts the public address in %s without resolving', async (url, normalized) => {
    expect(await check(url)).toEqual({ ok: true, url: normalized });
  });

  it('accepts a private address exempted by WEBHOOK_ALLOW_PRIVATE', async () => {
    const list = parseAllowList(['10.0.0.0/8']);
    expect(await check('https://10.0.0.8/hook', neverLookup, list)).toEqual({
      ok: true,
      url: 'https://10.0.0.8/hook',
    });
    expect((await check('https://[::ffff:10.0.0.8]/hook', neverLookup, list)).ok).toBe(true);
    expect((await check('https://192.168.0.1/hook', neverLookup, list)).ok).toBe(false);
  });
});

describe('validateWebhookUrl: names that resolve', () => {
  const lookup = tableLookup({
    'hooks.example.com': ['93.184.216.34', '2606:4700::1111'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
    'mapped.example.com': ['::ffff:169.254.169.254'],
    'empty.example.com': [],
  });

  it('accepts a name whose addresses are all public', async () => {
    expect(await check('https://Hooks.Example.com/formward', lookup)).toEqual({
      ok: true,
      url: 'https://hooks.example.com/formward',
    });
    expect(lookup.asked).toContain('hooks.example.com');
  });

  it('resolves a fully-qualified name without its trailing dot', async () => {
    expect((await check('https://hooks.example.com./x', lookup)).ok).toBe(true);
  });

  it('rejects a name where any address is private', async () => {
    const result = await check('https://sneaky.example.com/hook', lookup);
    expect(result).toEqual({
      ok: false,
      errors: ['url: host sneaky.example.com does not resolve to a public address'],
    });
  });

  it('rejects a name resolving to an IPv4-mapped metadata address', async () => {
    const result = await check('https://mapped.example.com/hook', lookup);
    expect(result).toEqual({
      ok: false,
      errors: ['url: host mapped.example.com does not resolve to a public address'],
    });
  });

  it('accepts a private resolution exempted by the allow list', async () => {
    const list = parseAllowList(['10.0.0.7']);
    expect((await check('https://sneaky.example.com/hook', lookup, list)).ok).toBe(true);
  });

  it.each(['https://nowhere.example.com/hook', 'https://empty.example.com/hook'])(
    'rejects %s, which does not resolve',
    async (url) => {
      expect(await check(url, lookup)).toEqual({
        ok: false,
        errors: [`url: host ${new URL(url).hostname} does not resolve to a public address`],
      });
    },
  );

  it('tells a DNS failure apart from a missing name', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('queryA ESERVFAIL'), { code: 'ESERVFAIL' });
    };
    const result = await check('https://hooks.example.com/x', failing);
    expect(!result.ok && result.errors[0]).toContain('could not be resolved right now (ESERVFAIL)');
  });
});

describe('validateWebhookUrl against a real DNS server', () => {
  let dns: DnsServer;
  let lookup: HostLookup;

  beforeAll(async () => {
    dns = await startDnsServer({
      'hooks.example.test': { A: ['93.184.216.34'], AAAA: ['2606:4700::1111'] },
      'rebind.example.test': { A: ['93.184.216.34'], AAAA: ['::1'] },
      'v6only.example.test': { AAAA: ['fd00::1'] },
      'alias.example.test': { CNAME: 'internal.example.test' },
      'internal.example.test': { A: ['10.1.2.3'] },
      'nothing.example.test': {},
    });
    // The same shape as the runtime's DNS_SERVERS lookup: A and AAAA, "no such record" is empty.
    const resolver = createResolver([dns.address]);
    const settle = (query: Promise<string[]>) =>
      query.catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOTFOUND' || error.code === 'ENODATA') return [];
        throw error;
      });
    lookup = async (host) => {
      const [v4, v6] = await Promise.all([
        settle(resolver.resolve4(host)),
        settle(resolver.resolve6(host)),
      ]);
      return [...v4, ...v6];
    };
  });

  afterAll(() => dns.close());

  it('accepts a name with public A and AAAA records', async () => {
    expect(await check('https://hooks.example.test/hook', lookup)).toEqual({
      ok: true,
      url: 'https://hooks.example.test/hook',
    });
  });

  // Finding 10 of the security review: the answer named the internal address
  // ("resolves to 10.1.2.3"), and told a missing name from an internal one, so anyone with an
  // account could map internal DNS (a CNAME of their own to db.corp is enough).
  it.each([
    ['rebind.example.test', '::1'],
    ['v6only.example.test', 'fd00::1'],
    ['alias.example.test', '10.1.2.3'],
    ['nothing.example.test', null],
    ['absent.example.test', null],
  ])('rejects %s with one answer that names no address', async (host, internal) => {
    const result = await check(`https://${host}/hook`, lookup);
    expect(result).toEqual({
      ok: false,
      errors: [`url: host ${host} does not resolve to a public address`],
    });
    if (internal) expect(JSON.stringify(result)).not.toContain(internal);
  });
});

describe('assertDialAllowed', () => {
  it('passes public and exempted addresses', () => {
    expect(() => assertDialAllowed('93.184.216.34', allowList)).not.toThrow();
    expect(() => assertDialAllowed('10.0.0.1', parseAllowList(['10.0.0.0/8']))).not.toThrow();
  });

  it.each(['127.0.0.1', '::ffff:7f00:1', '169.254.169.254', 'fe80::1%eth0', 'not-an-ip'])(
    'throws BlockedAddressError for %s',
    (address) => {
      let thrown: unknown;
      try {
        assertDialAllowed(address, allowList);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(BlockedAddressError);
      expect(thrown).toMatchObject({ name: 'BlockedAddressError', address });
      expect((thrown as Error).message).toMatch(/^refusing to connect to /);
    },
  );

  it('names the host, not the address, when the address came from resolving a name', () => {
    let thrown: unknown;
    try {
      assertDialAllowed('10.2.3.4', allowList, 'db.corp.example');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'BlockedAddressError', address: '10.2.3.4' });
    expect((thrown as Error).message).toBe(
      'refusing to connect: db.corp.example does not resolve to a public address',
    );
  });
});
