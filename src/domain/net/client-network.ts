import net from 'node:net';

/**
 * Whom a per-client limit counts: an IPv4 address as it is (IPv4-mapped IPv6 unwrapped), an
 * IPv6 address by its /64 network. One IPv6 subscriber usually holds a whole /64, so counting
 * single addresses would let one client rotate through 2^64 of them. Sign-in, change-password
 * and the ingest rate limit (src/http/ingest/rate-limit-key.ts) all count by it.
 */
export function clientNetwork(address: string): string {
  const plain = address.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(plain)) return plain;
  return `${ipv6Groups(plain).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (`::` expanded). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  // A dotted IPv4 tail (`64:ff9b::192.0.2.1`) stands for the last two groups.
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
