import type { Request } from 'express';

/** The submitter's address: Express applies TRUST_PROXY to `req.ip`; IPv4-mapped forms are unwrapped. */
export function clientAddress(req: Request): string | null {
  const ip = req.ip ?? req.socket.remoteAddress ?? null;
  if (!ip) return null;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
