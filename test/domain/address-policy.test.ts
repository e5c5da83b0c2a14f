import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  isAddressAllowed,
  parseAllowList,
} from '../../src/outbound/address-policy';

const noExemptions = parseAllowList([]);

// [address, reason it is blocked]: the first and last address of each range where it matters.
const blocked: Array<[string, string]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback, IPv4-mapped'],
  ['::ffff:7f00:1', 'loopback, IPv4-mapped'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback, IPv4-mapped'],
  ['::FFFF:A9FE:A9FE', 'link-local (cloud metadata), IPv4-mapped'],
  ['[::ffff:10.0.0.1]', 'private, IPv4-mapped'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::7f00:1', 'IPv4-compatible'],
  ['64:ff9b::a00:1', 'private, NAT64'],
  ['64:ff9b::127.0.0.1', 'loopback, NAT64'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['100::1', 'discard-only'],
  ['2001::1', 'IETF special-purpose'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:1ff::1', 'IETF special-purpose'],
  ['2001:db8::1', 'documentation'],
  ['2001:DB8:FFFF::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2002:7f00:1::1', 'loopback, 6to4'],
  ['2002:c0a8:101::', 'private, 6to4'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['[fe80::abcd%25en0]', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['FF05::1:3', 'multicast'],
  ['4000::1', 'not global unicast'],
  ['1::1', 'not global unicast'],
  ['localhost', 'not an IP address'],
  ['0x7f.0.0.1', 'not an IP address'],
  ['127.1', 'not an IP address'],
  ['010.0.0.1', 'not an IP address'],
  ['', 'not an IP address'],
];

const allowed = [
  '93.184.216.34',
  '1.1.1.1',
  '8.8.8.8',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.3.1',
  '192.167.255.255',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700::1111',
  '2606:4700:4700::1001',
  '2a00:1450:4001:80b::200e',
  '[2606:4700::1111]',
  '2001:200::1',
  '::ffff:93.184.216.34',
  '::ffff:5db8:d822',
  '64:ff9b::808:808',
  '2002:5db8:d822::1',
];

describe('classifyAddress', () => {
  it.each(blocked)('blocks %s (%s)', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.blocked).toBe(true);
    expect(verdict.reason).toContain(reason);
  });

  it.each(allowed)('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ blocked: false });
    expect(isAddressAllowed(address, noExemptions)).toBe(true);
  });
});

describe('isAddressAllowed with WEBHOOK_ALLOW_PRIVATE', () => {
  const allowList = parseAllowList([' 10.1.2.3 ', '192.168.50.0/24', 'fd00:1::/32', '::1', '']);

  it.each([
    ['10.1.2.3', true],
    ['::ffff:10.1.2.3', true],
    ['::ffff:a01:203', true],
    ['10.1.2.4', false],
    ['192.168.50.7', true],
    ['::ffff:192.168.50.7', true],
    ['192.168.51.7', false],
    ['fd00:1:abcd::5', true],
    ['fd00:2::5', false],
    ['::1', true],
    ['[::1]', true],
    ['127.0.0.1', false],
    // Only the IPv4-mapped spelling of an exempted IPv4 address is the same host.
    ['64:ff9b::a01:203', false],
    ['2002:a01:203::1', false],
    ['93.184.216.34', true],
    ['not-an-ip', false],
  ])('%s -> %s', (address, expected) => {
    expect(isAddressAllowed(address, allowList)).toBe(expected);
  });

  it('lets an IPv4-mapped CIDR exempt the plain IPv4 addresses it covers', () => {
    const mapped = parseAllowList(['::ffff:10.0.0.0/104']);
    expect(isAddressAllowed('10.9.8.7', mapped)).toBe(true);
    expect(isAddressAllowed('10.255.0.1', mapped)).toBe(true);
    expect(isAddressAllowed('172.16.0.1', mapped)).toBe(false);
  });

  it('masks host bits of a CIDR instead of rejecting it', () => {
    expect(isAddressAllowed('10.200.0.1', parseAllowList(['10.0.0.5/8']))).toBe(true);
  });

  it('exempts everything with 0.0.0.0/0 (an explicit operator choice)', () => {
    expect(isAddressAllowed('169.254.169.254', parseAllowList(['0.0.0.0/0']))).toBe(true);
  });
});

describe('parseAllowList', () => {
  it.each([
    ['localhost', 'not an IP address or CIDR'],
    ['10.0.0.0/', 'invalid prefix length'],
    ['10.0.0.0/33', 'invalid prefix length'],
    ['10.0.0.0/-1', 'invalid prefix length'],
    ['10.0.0.0/8/8', 'not an IP address or CIDR'],
    ['10.0.0.0/abc', 'invalid prefix length'],
    ['fd00::/129', 'invalid prefix length'],
    ['10.0.0', 'not an IP address or CIDR'],
    ['/8', 'not an IP address or CIDR'],
  ])('rejects %j', (entry, message) => {
    expect(() => parseAllowList([entry])).toThrow(message);
    expect(() => parseAllowList([entry])).toThrow(`"${entry}"`);
  });

  it('accepts IPv4 and IPv6 addresses and CIDRs', () => {
    const list = parseAllowList([
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '[fe80::1]',
      '0.0.0.0/0',
    ]);
    expect(list.entries).toHaveLength(6);
  });
});
