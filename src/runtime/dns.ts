import dns from 'node:dns';
import { createResolver } from '../domain/domains/verify-domain';
import type { DnsResolver } from '../domain/domains/resolver-type';

/** DNS_SERVERS set: every lookup goes to those servers; else the system's resolver. */
export function createDns(servers: string[]): {
  resolver: DnsResolver;
  lookupHost: (host: string) => Promise<string[]>;
} {
  const resolver = createResolver(servers);
  if (servers.length > 0) {
    const lookupHost = async (host: string) => {
      const settle = (p: Promise<string[]>) => p.catch(() => [] as string[]);
      const [v4, v6] = await Promise.all([
        settle(resolver.resolve4(host)),
        settle(resolver.resolve6(host)),
      ]);
      return [...v4, ...v6];
    };
    return { resolver, lookupHost };
  }
  const lookupHost = async (host: string) => {
    const found = await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => []);
    return found.map((entry) => entry.address);
  };
  return { resolver, lookupHost };
}
