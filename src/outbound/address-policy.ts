import net from 'node:net';

/**
 * Which addresses a webhook may reach (docs/webhook-delivery.md). Everything that is not a public unicast
 * address is blocked: loopback, private, link-local (cloud metadata), CGNAT, unique-local,
 * multicast, unspecified, documentation, benchmarking and reserved ranges, also when an IPv4
 * address hides inside IPv6 (IPv4-mapped, NAT64, 6to4). WEBHOOK_ALLOW_PRIVATE can exempt some.
 *
 * We parse addresses into bytes ourselves rather than lean on net.BlockList: BlockList treats
 * an IPv6 rule for ::ffff:0:0/96 as matching every plain IPv4 address and does not see IPv4
 * inside NAT64 or 6to4, and we want a reason for each refusal.
 */

type Family = 4 | 6;
type Address = { family: Family; bytes: Uint8Array };
type Prefix = { family: Family; bytes: Uint8Array; bits: number };
type BlockedRange = Prefix & { reason: string };

export type AddressClass = { blocked: boolean; reason?: string };

/** Parsed WEBHOOK_ALLOW_PRIVATE: addresses and CIDRs exempted from the block. */
export type AllowList = { readonly entries: readonly Prefix[] };

/** Strips surrounding whitespace, `[...]` brackets and an IPv6 zone id (`%eth0`); lower-cases. */
export function cleanAddress(raw: string): string {
  const trimmed = raw.trim();
  const unbracketed =
    trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return unbracketed.replace(/%.*$/, '').toLowerCase();
}

function ipv4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

/** 16 bytes of any IPv6 text net.isIP accepts: zero-compressed, dotted-quad tail, any case. */
function ipv6Bytes(text: string): Uint8Array {
  const words = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = ipv4Bytes(group);
          return [(a! << 8) | b!, (c! << 8) | d!];
        });
  const [headText, tailText] = text.split('::') as [string, string | undefined];
  const head = words(headText);
  const tail = tailText === undefined ? [] : words(tailText);
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

function parseAddress(raw: string): Address | null {
  const text = cleanAddress(raw);
  const family = net.isIP(text);
  if (family === 4) return { family, bytes: ipv4Bytes(text) };
  if (family === 6) return { family, bytes: ipv6Bytes(text) };
  return null;
}

function inPrefix(address: Address, prefix: Prefix): boolean {
  if (address.family !== prefix.family) return false;
  for (let bit = 0; bit < prefix.bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((address.bytes[bit >> 3]! & mask) !== (prefix.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

function range(base: string, bits: number, reason: string): BlockedRange {
  const address = parseAddress(base)!;
  return { ...address, bits, reason };
}

// First match wins, so narrow ranges come before the wider ones that contain them.
const BLOCKED_IPV4: BlockedRange[] = [
  range('0.0.0.0', 8, 'unspecified ("this network")'),
  range('10.0.0.0', 8, 'private'),
  range('100.64.0.0', 10, 'carrier-grade NAT'),
  range('127.0.0.0', 8, 'loopback'),
  range('169.254.0.0', 16, 'link-local (cloud metadata)'),
  range('172.16.0.0', 12, 'private'),
  range('192.0.0.0', 24, 'IETF protocol assignments'),
  range('192.0.2.0', 24, 'documentation'),
  range('192.88.99.0', 24, '6to4 relay anycast'),
  range('192.168.0.0', 16, 'private'),
  range('198.18.0.0', 15, 'benchmarking'),
  range('198.51.100.0', 24, 'documentation'),
  range('203.0.113.0', 24, 'documentation'),
  range('224.0.0.0', 4, 'multicast'),
  range('255.255.255.255', 32, 'broadcast'),
  range('240.0.0.0', 4, 'reserved'),
];

// Only 2000::/3 is global unicast; everything outside it is refused (see GLOBAL_UNICAST), the
// named ranges below just give better reasons. 2001::/23 includes Teredo (2001::/32): blocked
// on purpose, since a Teredo address tunnels to an IPv4 host we cannot see.
const BLOCKED_IPV6: BlockedRange[] = [
  range('::', 128, 'unspecified'),
  range('::1', 128, 'loopback'),
  range('::', 96, 'IPv4-compatible (deprecated)'),
  range('64:ff9b:1::', 48, 'local-use NAT64'),
  range('100::', 64, 'discard-only'),
  range('2001::', 23, 'IETF special-purpose (incl. Teredo)'),
  range('2001:db8::', 32, 'documentation'),
  range('3fff::', 20, 'documentation'),
  range('fc00::', 7, 'unique-local'),
  range('fe80::', 10, 'link-local'),
  range('fec0::', 10, 'site-local (deprecated)'),
  range('ff00::', 8, 'multicast'),
];

const GLOBAL_UNICAST = range('2000::', 3, 'global unicast');

/** IPv6 forms that carry an IPv4 address, which is what actually gets reached. */
const IPV4_CARRIERS: Array<{ prefix: BlockedRange; offset: number }> = [
  { prefix: range('::ffff:0:0', 96, 'IPv4-mapped'), offset: 12 },
  { prefix: range('64:ff9b::', 96, 'NAT64'), offset: 12 },
  { prefix: range('2002::', 16, '6to4'), offset: 2 },
];

function embeddedIpv4(address: Address): { inner: Address; via: string } | null {
  for (const { prefix, offset } of IPV4_CARRIERS) {
    if (inPrefix(address, prefix)) {
      const inner: Address = { family: 4, bytes: address.bytes.slice(offset, offset + 4) };
      return { inner, via: prefix.reason };
    }
  }
  return null;
}

function classify(address: Address): AddressClass {
  if (address.family === 6) {
    const embedded = embeddedIpv4(address);
    if (embedded) {
      const verdict = classify(embedded.inner);
      return verdict.blocked
        ? { blocked: true, reason: `${verdict.reason}, ${embedded.via}` }
        : verdict;
    }
  }
  const table = address.family === 4 ? BLOCKED_IPV4 : BLOCKED_IPV6;
  const hit = table.find((candidate) => inPrefix(address, candidate));
  if (hit) return { blocked: true, reason: hit.reason };
  if (address.family === 6 && !inPrefix(address, GLOBAL_UNICAST)) {
    return { blocked: true, reason: 'not global unicast (outside 2000::/3)' };
  }
  return { blocked: false };
}

/** Whether a webhook may reach this address; any text that is not an IP address is blocked. */
export function classifyAddress(ip: string): AddressClass {
  const address = parseAddress(ip);
  return address ? classify(address) : { blocked: true, reason: 'not an IP address' };
}

/** Accepts `10.0.0.5`, `10.0.0.0/8`, `fd00::/8`, `::1`; throws on anything else. */
export function parseAllowList(entries: string[]): AllowList {
  const parsed = entries
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry): Prefix => {
      const parts = entry.split('/');
      const address = parts.length <= 2 ? parseAddress(parts[0]!) : null;
      if (!address) {
        throw new Error(
          `WEBHOOK_ALLOW_PRIVATE: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`,
        );
      }
      const max = address.family === 4 ? 32 : 128;
      const bitsText = parts[1];
      const bits =
        bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
      if (!(bits >= 0 && bits <= max)) {
        throw new Error(
          `WEBHOOK_ALLOW_PRIVATE: "${entry}" has an invalid prefix length (0-${max} for IPv${address.family})`,
        );
      }
      return { ...address, bits };
    });
  return { entries: parsed };
}

/** The same host in its other notation: IPv4 <-> IPv4-mapped IPv6 (one socket, two spellings). */
function otherForm(address: Address): Address | null {
  if (address.family === 4) {
    const bytes = new Uint8Array(16);
    bytes.set([0xff, 0xff], 10);
    bytes.set(address.bytes, 12);
    return { family: 6, bytes };
  }
  const embedded = embeddedIpv4(address);
  return embedded?.via === 'IPv4-mapped' ? embedded.inner : null;
}

function isExempted(address: Address, allowList: AllowList): boolean {
  const forms = [address, otherForm(address)].filter((form): form is Address => form !== null);
  return allowList.entries.some((entry) => forms.some((form) => inPrefix(form, entry)));
}

/** Not blocked, or exempted by the allow list (an IPv4 entry also covers its IPv4-mapped form). */
export function isAddressAllowed(ip: string, allowList: AllowList): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  return !classify(address).blocked || isExempted(address, allowList);
}

/** 127.0.0.0/8 or ::1, also in IPv4-mapped form: this machine itself. */
export function isLoopbackAddress(ip: string): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  const inner = address.family === 6 ? (otherForm(address) ?? address) : address;
  return inner.family === 4 ? inner.bytes[0] === 127 : sameAddress('::1', ip);
}

/** Whether two address texts name one host (an IPv4 address and its IPv4-mapped form do). */
export function sameAddress(a: string, b: string): boolean {
  const x = parseAddress(a);
  const y = parseAddress(b);
  if (!x || !y) return false;
  return [y, otherForm(y)].some(
    (form) => form?.family === x.family && form.bytes.every((byte, i) => byte === x.bytes[i]),
  );
}
