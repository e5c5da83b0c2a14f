import { createHmac } from 'node:crypto';
import net from 'node:net';
import type { DnsResolver } from './resolver-type';

const TXT_PREFIX = 'formward-verification=';
const TXT_SUBDOMAIN = '_formward';

/** One record a domain needs, as the owner adds it to DNS. */
export type RequiredRecord = { type: 'TXT' | 'CNAME' | 'A' | 'AAAA'; name: string; value: string };

/**
 * The outcome of one check of a domain's records (the public verify_domain answer's body).
 * It says which records are there and whether they point at FORM_PAGES_TARGET, never what
 * they hold: the addresses, CNAME targets and TXT values found stay here, so no check can
 * read a name's records for anyone (a private zone seen through our resolver, say).
 */
export type DomainCheck = {
  domain: string;
  /** The account's TXT value AND the target record (a CNAME, or A/AAAA records) are present. */
  verified: boolean;
  /** Whether an account holds the domain (which one is never said). */
  claimed: boolean;
  /** How the domain points at FORM_PAGES_TARGET, once it does. */
  method: 'cname' | 'address' | null;
  /** The domain points at FORM_PAGES_TARGET (a CNAME to it, or only its addresses). */
  points_at_target: boolean;
  records: {
    /** `present`: the domain has a CNAME; `ok`: to the target. */
    cname: { expected: string; present: boolean; ok: boolean };
    /** `present`: the domain has A/AAAA records; `ok`: all among the target's addresses. */
    address: { present: boolean; ok: boolean };
    /** `expected` is null while no account holds the domain: the value is per account. */
    txt: { name: string; expected: string | null; present: boolean; ok: boolean };
  };
  /** The required records found, in words. */
  present: string[];
  /** What to add to DNS, in words; empty once verified. */
  missing: string[];
  /** Set when a lookup failed for another reason than "no such record" and nothing verified. */
  error?: string;
  checked_at: string;
};

/**
 * The TXT value that proves an account controls a domain: derived from APP_SECRET, the
 * account and the domain, so nothing is stored and no account's value verifies another's claim.
 */
export function claimTxtValue(appSecret: string, accountId: string, domain: string): string {
  const token = createHmac('sha256', appSecret)
    .update(`domain-claim\0${accountId}\0${domain}`)
    .digest('base64url')
    .slice(0, 32);
  return `${TXT_PREFIX}${token}`;
}

export const txtRecordName = (domain: string) => `${TXT_SUBDOMAIN}.${domain}`;

/** The records to add for a domain: the account's TXT and a CNAME to the target. */
export function requiredRecords(
  domain: string,
  txtValue: string,
  target: string,
): RequiredRecord[] {
  const pointer: RequiredRecord = net.isIP(target)
    ? { type: net.isIPv6(target) ? 'AAAA' : 'A', name: domain, value: target }
    : { type: 'CNAME', name: domain, value: target };
  return [{ type: 'TXT', name: txtRecordName(domain), value: txtValue }, pointer];
}

// Resolver answers meaning "no such record" (NXDOMAIN, NODATA), not a failure to ask.
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

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

const canonical = (host: string) => host.toLowerCase().replace(/\.$/, '');

// DNS control panels sometimes keep the quotes a user pasted; they are not part of the value.
const unquoted = (value: string) => value.trim().replace(/^"(.*)"$/, '$1');

/** Both address families of a host; an IP literal is its own address. */
async function addressesOf(resolver: DnsResolver, host: string): Promise<Lookup<string>> {
  if (net.isIP(host)) return { found: [host] };
  const [v4, v6] = await Promise.all([
    settle(`A ${host}`, () => resolver.resolve4(host)),
    settle(`AAAA ${host}`, () => resolver.resolve6(host)),
  ]);
  return { found: [...v4.found, ...v6.found], error: v4.error ?? v6.error };
}

/**
 * Checks a domain's records against FORM_PAGES_TARGET and the claiming account's TXT value
 * (`expectedTxt`, null while unclaimed): verified when the TXT `_formward.{domain}` holds the
 * value AND the domain has a CNAME to the target or only A/AAAA records among the target's
 * addresses. Lookup failures only surface (as `error`) when the domain did not verify.
 */
export async function checkDomain(
  domain: string,
  options: { resolver: DnsResolver; target: string; expectedTxt: string | null },
): Promise<DomainCheck> {
  const { resolver, target, expectedTxt } = options;
  const txtName = txtRecordName(domain);
  const [cname, txt, own, targets] = await Promise.all([
    settle(`CNAME ${domain}`, () => resolver.resolveCname(domain)),
    settle(`TXT ${txtName}`, () => resolver.resolveTxt(txtName)),
    addressesOf(resolver, domain),
    addressesOf(resolver, target),
  ]);

  const cnameFound = cname.found.map((host) => host.replace(/\.$/, ''));
  const txtFound = txt.found.map((chunks) => chunks.join(''));
  const cnameOk = cnameFound.some((host) => canonical(host) === canonical(target));
  const addressOk =
    own.found.length > 0 && own.found.every((address) => targets.found.includes(address));
  const txtOk = expectedTxt !== null && txtFound.some((value) => unquoted(value) === expectedTxt);
  const targetOk = cnameOk || addressOk;
  const verified = txtOk && targetOk;

  const txtWords = `TXT ${txtName}`;
  const targetWords = `CNAME ${domain} → ${target} (or A/AAAA records with its addresses)`;
  const present = [...(txtOk ? [txtWords] : []), ...(targetOk ? [targetWords] : [])];
  const missing: string[] = [];
  if (!txtOk) {
    missing.push(
      expectedTxt === null
        ? `claim ${domain} in a Formward account (POST /api/domains or the dashboard's Domains page) to get the value of its TXT record ${txtName}`
        : `add a TXT record on ${txtName} with the value ${expectedTxt}`,
    );
  }
  if (!targetOk) {
    missing.push(
      net.isIP(target)
        ? `add an ${net.isIPv6(target) ? 'AAAA' : 'A'} record: ${domain} ${target}`
        : `add a CNAME record: ${domain} CNAME ${target}, or A/AAAA records with the addresses of ${target}`,
    );
  }
  const errors = [cname.error, txt.error, own.error, targets.error].filter((e) => e !== undefined);

  return {
    domain,
    verified,
    claimed: expectedTxt !== null,
    method: !targetOk ? null : cnameOk ? 'cname' : 'address',
    points_at_target: targetOk,
    records: {
      cname: { expected: target, present: cnameFound.length > 0, ok: cnameOk },
      address: { present: own.found.length > 0, ok: addressOk },
      txt: { name: txtName, expected: expectedTxt, present: txtFound.length > 0, ok: txtOk },
    },
    present,
    missing,
    ...(!verified && errors.length > 0 ? { error: errors.join('; ') } : {}),
    checked_at: new Date().toISOString(),
  };
}
