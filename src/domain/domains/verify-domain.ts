import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import net from 'node:net';
import { domainToASCII } from 'node:url';

/** The two lookups verification needs; node's dns.promises.Resolver fits. */
export type VerificationResolver = {
  resolveCname(host: string): Promise<string[]>;
  resolveTxt(host: string): Promise<string[][]>;
};

/** JSON-ready outcome of GET /api/public/verify_domain. */
export type DomainVerification = {
  domain: string;
  verified: boolean;
  method: 'cname' | 'txt' | null;
  records: {
    cname: { expected: string; found: string[]; ok: boolean };
    txt: { expected: string; found: string[]; ok: boolean };
  };
  /** What to add to DNS; empty once verified. */
  missing: string[];
  /** Set when a lookup failed for another reason than "no such record" and nothing verified. */
  error?: string;
  checked_at: string;
};

export type NormalizedDomain = { ok: true; domain: string } | { ok: false; error: string };

const TXT_PREFIX = 'formward-verification=';
const TXT_SUBDOMAIN = '_formward';
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Names that only mean something inside a network (RFC 6761, 6762, 8375 and the ICANN
 * `.internal` reservation, plus common private suffixes): our resolver must not be asked about
 * them for anyone on the internet.
 */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'localdomain',
  'home.arpa',
  'arpa',
  'onion',
];

// Resolver answers meaning "no such record" (NXDOMAIN, NODATA), not a failure to ask.
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/** A bare host name such as forms.example.com, lower-cased and in ASCII (IDNs punycoded). */
export function normalizeDomain(input: string): NormalizedDomain {
  const fail = (error: string): NormalizedDomain => ({ ok: false, error });
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed === '') return fail('is required, e.g. forms.example.com');
  if (net.isIP(trimmed.replace(/^\[(.*)\]$/, '$1'))) return fail('an IP address is not a domain');
  if (/[/\\:@?#\s]/.test(trimmed)) {
    return fail('give a bare domain such as forms.example.com (no scheme, port or path)');
  }
  const ascii = domainToASCII(trimmed);
  if (!ascii) return fail('contains characters not allowed in a domain name');
  // The URL parser reads all-numeric names like 0x7f.1 as IPv4 addresses.
  if (net.isIP(ascii)) return fail('an IP address is not a domain');
  if (ascii.length > 253) return fail('is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) return fail('needs at least two labels, e.g. example.com');
  if (labels.some((label) => label.length > 63))
    return fail('has a label longer than 63 characters');
  if (!labels.every((label) => LABEL.test(label))) {
    return fail('labels may only hold letters, digits and inner hyphens');
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1]!))
    return fail('has an all-numeric top-level label');
  const internal = INTERNAL_SUFFIXES.find((suffix) => ascii.endsWith(`.${suffix}`));
  if (internal) return fail(`.${internal} names are internal and cannot be verified`);
  return { ok: true, domain: ascii };
}

/** Derived from APP_SECRET, so nothing is stored and every spelling of a domain gets one token. */
export function verificationToken(domain: string, appSecret: string): string {
  const normalized = normalizeDomain(domain);
  const key = normalized.ok ? normalized.domain : domain.trim().toLowerCase();
  return createHmac('sha256', appSecret).update(key).digest('base64url').slice(0, 32);
}

/**
 * A resolver for domain verification. `servers` are DNS_SERVERS entries: `1.1.1.1`,
 * `127.0.0.1:5353`, `[::1]:53`; empty means the system's servers.
 */
export function createResolver(servers: string[]): dns.promises.Resolver {
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  if (servers.length === 0) return resolver;
  try {
    resolver.setServers(servers);
  } catch {
    throw new Error(
      `DNS_SERVERS: "${servers.join(',')}" must list IP addresses with an optional port (e.g. 1.1.1.1, 127.0.0.1:5353, [::1]:53)`,
    );
  }
  return resolver;
}

type Lookup<T> = { found: T[]; error?: string };

async function settle<T>(what: string, query: () => Promise<T[]>): Promise<Lookup<T>> {
  try {
    return { found: await query() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NOT_FOUND_CODES.has(code)) return { found: [] };
    return { found: [], error: `${what} lookup failed (${code || (error as Error).message})` };
  }
}

const sameHost = (a: string, b: string) =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

// DNS control panels sometimes keep the quotes a user pasted; they are not part of the value.
const unquoted = (value: string) => value.trim().replace(/^"(.*)"$/, '$1');

/**
 * A custom form-page domain is verified by a CNAME to the ingest host, or by a TXT record
 * `formward-verification=<token>` on the domain or on `_formward.<domain>`. A proof found wins
 * even when another lookup failed; failures only surface (as `error`) when nothing verified.
 */
export async function verifyDomain(
  domain: string,
  options: { resolver: VerificationResolver; ingestHost: string; appSecret: string },
): Promise<DomainVerification> {
  const normalized = normalizeDomain(domain);
  const name = normalized.ok ? normalized.domain : domain;
  const { resolver, ingestHost } = options;
  const expectedTxt = `${TXT_PREFIX}${verificationToken(name, options.appSecret)}`;
  const txtHost = `${TXT_SUBDOMAIN}.${name}`;

  const [cname, txtApex, txtSub] = normalized.ok
    ? await Promise.all([
        settle(`CNAME ${name}`, () => resolver.resolveCname(name)),
        settle(`TXT ${name}`, () => resolver.resolveTxt(name)),
        settle(`TXT ${txtHost}`, () => resolver.resolveTxt(txtHost)),
      ])
    : [{ found: [], error: `domain ${normalized.error}` }, { found: [] }, { found: [] }];

  const cnameFound = cname.found.map((target) => target.replace(/\.$/, ''));
  const txtFound = [...txtApex.found, ...txtSub.found].map((chunks) => chunks.join(''));
  const cnameOk = cnameFound.some((target) => sameHost(target, ingestHost));
  const txtOk = txtFound.some((value) => unquoted(value) === expectedTxt);
  const verified = cnameOk || txtOk;
  const errors = [cname.error, txtApex.error, txtSub.error].filter((e) => e !== undefined);

  return {
    domain: name,
    verified,
    method: cnameOk ? 'cname' : txtOk ? 'txt' : null,
    records: {
      cname: { expected: ingestHost, found: cnameFound, ok: cnameOk },
      txt: { expected: expectedTxt, found: txtFound, ok: txtOk },
    },
    missing: verified
      ? []
      : [
          `add a CNAME record: ${name} CNAME ${ingestHost}`,
          `or add a TXT record on ${txtHost} (or on ${name} itself) with the value ${expectedTxt}`,
        ],
    ...(!verified && errors.length > 0 ? { error: errors.join('; ') } : {}),
    checked_at: new Date().toISOString(),
  };
}
