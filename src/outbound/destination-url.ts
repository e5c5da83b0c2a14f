import dns from 'node:dns';
import net from 'node:net';
import { classifyAddress, cleanAddress, isAddressAllowed, type AllowList } from './address-policy';
import { ownOriginError } from './own-origin';

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; errors: string[] };

/** Resolves a host name to every address it has (IPv4 and IPv6). */
export type HostLookup = (hostname: string) => Promise<string[]>;

const MAX_URL_LENGTH = 2048;

// Names that only mean something inside a network (RFC 6761, 6762, 8375 and common practice).
const INTERNAL_NAMES = ['localhost', 'localhost.localdomain'];
const INTERNAL_SUFFIXES = ['.localhost', '.localdomain', '.local', '.internal', '.home.arpa'];

// Resolver answers meaning "this name has no address", as opposed to "could not ask".
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'EAI_NONAME', 'EAI_NODATA']);

/** The system's resolver (dns.lookup), every address of the name. */
export const systemLookup: HostLookup = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Checks the parts of the URL that need no DNS; returns the host to resolve, if any. */
function staticErrors(
  url: URL,
  allowList: AllowList,
): { errors: string[]; hostToResolve?: string } {
  const errors: string[] = [];
  if (url.protocol !== 'https:') {
    errors.push('url: must use https:// (plain HTTP and other schemes are rejected)');
  }
  if (url.username || url.password) {
    errors.push('url: must not contain credentials (user:password@)');
  }
  const host = cleanAddress(url.hostname).replace(/\.$/, '');
  if (net.isIP(host)) {
    if (!isAddressAllowed(host, allowList)) {
      errors.push(`url: address ${host} is not public (${classifyAddress(host).reason})`);
    }
    return { errors };
  }
  const internal =
    INTERNAL_NAMES.includes(host) ||
    INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix)) ||
    !host.includes('.');
  if (internal) errors.push(`url: host ${host} is an internal name`);
  return { errors, hostToResolve: internal ? undefined : host };
}

/**
 * Resolves the host and refuses it when any of its addresses is blocked (one is enough to aim
 * at). The answer never names the addresses found, nor tells "no address" from "a private one":
 * a stranger could otherwise map internal DNS through us (a CNAME to db.corp is enough).
 */
async function resolutionErrors(
  host: string,
  lookup: HostLookup,
  allowList: AllowList,
): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!NOT_FOUND_CODES.has(code)) {
      return [`url: host could not be resolved right now (${code || 'DNS error'}); try again`];
    }
    addresses = [];
  }
  const usable = addresses.length > 0 && addresses.every((a) => isAddressAllowed(a, allowList));
  return usable ? [] : [notPublicHostMessage(host)];
}

/** The one answer for a name with no address or a non-public one. */
export function notPublicHostMessage(host: string): string {
  return `url: host ${host} does not resolve to a public address`;
}

/**
 * Creation-time check of a webhook URL (docs/webhook-delivery.md): an absolute https:// URL without
 * credentials, not an internal name, and neither its literal address nor any address its name
 * resolves to may be blocked, unless WEBHOOK_ALLOW_PRIVATE exempts it, and it may not point at
 * this service's own public URLs (`ownUrls`: a loop). Connect time checks the address again
 * (assertDialAllowed), since DNS answers can change after this.
 */
export async function validateWebhookUrl(
  rawUrl: unknown,
  options: { allowList: AllowList; lookup?: HostLookup; ownUrls?: readonly string[] },
): Promise<WebhookUrlCheck> {
  const fail = (errors: string[]): WebhookUrlCheck => ({ ok: false, errors });
  if (typeof rawUrl !== 'string') return fail(['url: must be a string (an https:// URL)']);
  const text = rawUrl.trim();
  if (text === '') return fail(['url: is required (an https:// URL)']);
  if (text.length > MAX_URL_LENGTH) {
    return fail([`url: must be at most ${MAX_URL_LENGTH} characters`]);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(['url: must be an absolute URL such as https://example.com/hooks/formward']);
  }
  const loop = ownOriginError(url, options.ownUrls ?? []);
  if (loop) return fail([loop]);
  const checked = staticErrors(url, options.allowList);
  if (checked.errors.length > 0) return fail(checked.errors);
  if (checked.hostToResolve !== undefined) {
    const lookup = options.lookup ?? systemLookup;
    const errors = await resolutionErrors(checked.hostToResolve, lookup, options.allowList);
    if (errors.length > 0) return fail(errors);
  }
  return { ok: true, url: url.toString() };
}

/** Thrown when a delivery is about to connect to an address the policy refuses. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';

  /**
   * `hostname`: the name that resolved to `address`. Its message then leaves the address out,
   * since the delivery log is read by the plugin's owner (see resolutionErrors).
   */
  constructor(
    readonly address: string,
    readonly reason: string,
    readonly hostname?: string,
  ) {
    super(
      hostname === undefined
        ? `refusing to connect to ${address} (${reason})`
        : `refusing to connect: ${hostname} does not resolve to a public address`,
    );
  }
}

/**
 * Called on the address actually dialled, so DNS rebinding cannot slip past the creation check;
 * `hostname` when the address came from resolving it.
 */
export function assertDialAllowed(ip: string, allowList: AllowList, hostname?: string): void {
  if (isAddressAllowed(ip, allowList)) return;
  throw new BlockedAddressError(ip, classifyAddress(ip).reason ?? 'blocked', hostname);
}
