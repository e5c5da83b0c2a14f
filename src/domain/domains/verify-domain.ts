import dns from 'node:dns';
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { decodePunycode } from './punycode';

export type NormalizedDomain = { ok: true; domain: string } | { ok: false; error: string };

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

/**
 * A label that is not `xn--` is left to the rules below. An `xn--` label must be what Node
 * itself makes of some non-ASCII text: it decodes (our own RFC 3492 decoder, since Node's
 * `domainToASCII` lets undecodable ones through on some versions and not on others), the text
 * is not all ASCII, and that text encodes back to the same label (no other spelling of it,
 * nothing the IDNA rules map or forbid).
 */
function isValidAceLabel(label: string): boolean {
  if (!label.startsWith('xn--')) return true;
  const text = decodePunycode(label.slice('xn--'.length));
  return text !== null && /\P{ASCII}/u.test(text) && domainToASCII(text) === label;
}

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
  if (!ascii || !ascii.split('.').every(isValidAceLabel)) {
    return fail('contains characters not allowed in a domain name');
  }
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
