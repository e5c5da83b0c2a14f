import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import net from 'node:net';
import { domainToASCII } from 'node:url';

type TxtCnameResolver = {
  resolveCname(host: string): Promise<string[]>;
  resolveTxt(host: string): Promise<string[][]>;
};

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** The TXT value proving control of a domain: derived from APP_SECRET, so nothing is stored. */
export function verificationToken(domain: string, appSecret: string): string {
  return createHmac('sha256', appSecret)
    .update(domain.toLowerCase())
    .digest('base64url')
    .slice(0, 32);
}

export function normalizeDomain(
  input: string,
): { ok: true; domain: string } | { ok: false; error: string } {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (/[/:@?#\s]/.test(trimmed))
    return { ok: false, error: 'give a bare domain such as forms.example.com (no scheme or path)' };
  if (net.isIP(trimmed)) return { ok: false, error: 'an IP address is not a domain' };
  const ascii = domainToASCII(trimmed);
  if (!ascii) return { ok: false, error: 'is not a valid domain name' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, error: 'needs at least two labels, e.g. example.com' };
  if (ascii.length > 253) return { ok: false, error: 'is longer than 253 characters' };
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!labels.every((l) => label.test(l))) return { ok: false, error: 'contains an invalid label' };
  return { ok: true, domain: ascii };
}

export function createResolver(servers: string[]): dns.promises.Resolver {
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

async function lookup<T>(fn: () => Promise<T[]>): Promise<{ found: T[]; error?: string }> {
  try {
    return { found: await fn() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return NOT_FOUND.has(code)
      ? { found: [] }
      : { found: [], error: `${code || 'error'}: ${(error as Error).message}` };
  }
}

const sameHost = (a: string, b: string) =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/**
 * A custom form-page domain is verified by a CNAME to the ingest host, or a TXT record
 * `formward-verification=<token>` on the domain or on `_formward.<domain>`.
 */
export async function verifyDomain(
  domain: string,
  options: { resolver: TxtCnameResolver; ingestHost: string; appSecret: string },
) {
  const expectedTxt = `formward-verification=${verificationToken(domain, options.appSecret)}`;
  const [cname, txtApex, txtSub] = await Promise.all([
    lookup(() => options.resolver.resolveCname(domain)),
    lookup(() => options.resolver.resolveTxt(domain)),
    lookup(() => options.resolver.resolveTxt(`_formward.${domain}`)),
  ]);
  const txtFound = [...txtApex.found, ...txtSub.found].map((chunks) => chunks.join(''));
  const cnameOk = cname.found.some((target) => sameHost(target, options.ingestHost));
  const txtOk = txtFound.includes(expectedTxt);
  const verified = cnameOk || txtOk;
  const errors = [cname.error, txtApex.error, txtSub.error].filter(Boolean);
  return {
    domain,
    verified,
    method: cnameOk ? ('cname' as const) : txtOk ? ('txt' as const) : null,
    records: {
      cname: { expected: options.ingestHost, found: cname.found, ok: cnameOk },
      txt: { expected: expectedTxt, found: txtFound, ok: txtOk },
    },
    missing: verified
      ? []
      : [
          `a CNAME record ${domain} -> ${options.ingestHost}`,
          `or a TXT record on ${domain} or _formward.${domain} with the value ${expectedTxt}`,
        ],
    ...(errors.length > 0 && !verified ? { error: errors.join('; ') } : {}),
    checked_at: new Date().toISOString(),
  };
}
