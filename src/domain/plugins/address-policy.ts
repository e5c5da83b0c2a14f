import net from 'node:net';

/**
 * Which addresses a webhook may reach (decisions §7): loopback, private, link-local (cloud
 * metadata), CGNAT, unique-local, multicast, unspecified, documentation and reserved ranges
 * are blocked, in IPv4, IPv6 and IPv4-mapped/translated IPv6 forms.
 */
const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const BLOCKED_V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function toBytes(ip: string): Buffer {
  // net.SocketAddress normalises every textual form; we need the 16 raw bytes of IPv6.
  const groups = expandIpv6(ip);
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  return bytes;
}

function expandIpv6(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.includes('::')
    ? (text.split('::') as [string, string])
    : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const all = [...headGroups, ...Array(rest !== undefined ? missing : 0).fill('0'), ...restGroups];
  return all.map((g) => parseInt(g || '0', 16));
}

/** Strips brackets and an IPv6 zone id. */
export function cleanAddress(ip: string): string {
  return ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

/** The IPv4 address inside a mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 one. */
function embeddedIpv4(bytes: Buffer): string | null {
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  const v4 = (offset: number) => Array.from(bytes.subarray(offset, offset + 4)).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12);
  if (bytes.readUInt32BE(0) === 0x0064ff9b && zeros(4, 12)) return v4(12);
  if (bytes.readUInt16BE(0) === 0x2002) return v4(2);
  return null;
}

function inPrefix(bytes: Buffer, prefix: Buffer, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (prefix[i >> 3]! & mask)) return false;
  }
  return true;
}

function v4ToBytes(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

export type AddressClass = { blocked: boolean; reason?: string };

export function classifyAddress(rawIp: string): AddressClass {
  const ip = cleanAddress(rawIp);
  const family = net.isIP(ip);
  if (family === 4) {
    if (ip === '255.255.255.255') return { blocked: true, reason: 'broadcast' };
    const bytes = v4ToBytes(ip);
    for (const [base, bits, reason] of BLOCKED_V4) {
      if (inPrefix(bytes, v4ToBytes(base), bits)) return { blocked: true, reason };
    }
    return { blocked: false };
  }
  if (family === 6) {
    const bytes = toBytes(ip);
    const inner = embeddedIpv4(bytes);
    if (inner) {
      const verdict = classifyAddress(inner);
      return verdict.blocked
        ? { blocked: true, reason: `${verdict.reason} (IPv4 inside IPv6)` }
        : verdict;
    }
    for (const [base, bits, reason] of BLOCKED_V6) {
      if (inPrefix(bytes, toBytes(base), bits)) return { blocked: true, reason };
    }
    return { blocked: false };
  }
  return { blocked: true, reason: 'not an IP address' };
}

/** WEBHOOK_ALLOW_PRIVATE: addresses and CIDRs exempted from the block. */
export type AllowList = { entries: Array<{ bytes: Buffer; bits: number; family: 4 | 6 }> };

export function parseAllowList(items: string[]): AllowList {
  const entries = items.map((item) => {
    const [address, bitsText] = item.split('/') as [string, string | undefined];
    const ip = cleanAddress(address);
    const family = net.isIP(ip);
    if (family === 0)
      throw new Error(`WEBHOOK_ALLOW_PRIVATE: "${item}" is not an IP address or CIDR`);
    const max = family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > max) {
      throw new Error(`WEBHOOK_ALLOW_PRIVATE: "${item}" has an invalid prefix length`);
    }
    return { bytes: family === 4 ? v4ToBytes(ip) : toBytes(ip), bits, family: family as 4 | 6 };
  });
  return { entries };
}

function exempted(ip: string, allowList: AllowList): boolean {
  const family = net.isIP(ip);
  if (family === 0) return false;
  const bytes = family === 4 ? v4ToBytes(ip) : toBytes(ip);
  const inner = family === 6 ? embeddedIpv4(bytes) : null;
  return allowList.entries.some(
    (entry) =>
      (entry.family === family && inPrefix(bytes, entry.bytes, entry.bits)) ||
      (inner !== null && entry.family === 4 && inPrefix(v4ToBytes(inner), entry.bytes, entry.bits)),
  );
}

export function isAddressAllowed(rawIp: string, allowList: AllowList): boolean {
  const ip = cleanAddress(rawIp);
  return !classifyAddress(ip).blocked || exempted(ip, allowList);
}

export class BlockedAddressError extends Error {
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super(`refusing to connect to ${address}: ${reason} address`);
  }
}

/** Called on the address actually dialled, so DNS rebinding cannot slip past the creation check. */
export function assertDialAllowed(ip: string, allowList: AllowList): void {
  if (isAddressAllowed(ip, allowList)) return;
  throw new BlockedAddressError(ip, classifyAddress(ip).reason ?? 'blocked');
}
