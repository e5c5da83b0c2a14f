import net from 'node:net';

/**
 * Whom the ingest rate limit counts: an IPv4 address as it is, an IPv6 address by its /64
 * network. One IPv6 subscriber usually holds a whole /64 (or more), so counting single
 * addresses would let one client rotate through 2^64 of them.
 */
export function rateLimitSubject(address: string | null): string {
  if (!address || !net.isIPv6(address)) return address ?? 'unknown';
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (`::` expanded, zone dropped). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) stands for the last two groups.
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
