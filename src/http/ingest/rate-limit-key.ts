import { clientNetwork } from '../../domain/net/client-network';

/**
 * Whom the ingest rate limit counts: the client's network as the sign-in throttle counts it
 * (an IPv4 address, IPv4-mapped ones unwrapped; an IPv6 /64), so both limits agree.
 */
export function rateLimitSubject(address: string | null): string {
  return address ? clientNetwork(address) : 'unknown';
}
