import type { Request } from 'express';

/** Each request's address, worked out once (TRUST_PROXY's walk of the forwarded chain is not free). */
const addresses = new WeakMap<Request, string | null>();

/** The submitter's address: Express applies TRUST_PROXY to `req.ip`; IPv4-mapped forms are unwrapped. */
export function clientAddress(req: Request): string | null {
  if (addresses.has(req)) return addresses.get(req)!;
  const ip = req.ip ?? req.socket.remoteAddress ?? null;
  const address = ip && ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  addresses.set(req, address);
  return address;
}
