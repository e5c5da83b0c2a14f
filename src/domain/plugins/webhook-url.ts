import dns from 'node:dns';
import net from 'node:net';
import { classifyAddress, cleanAddress, isAddressAllowed, type AllowList } from './address-policy';

const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; errors: string[] };

const defaultLookup = async (host: string) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Creation-time check of a webhook URL (decisions §7): https only, no credentials, no
 * internal names, and neither the literal address nor any address the name resolves to
 * may be blocked (unless WEBHOOK_ALLOW_PRIVATE exempts it).
 */
export async function validateWebhookUrl(
  rawUrl: unknown,
  options: { allowList: AllowList; lookup?: (hostname: string) => Promise<string[]> },
): Promise<WebhookUrlCheck> {
  const fail = (message: string): WebhookUrlCheck => ({ ok: false, errors: [`url: ${message}`] });
  if (typeof rawUrl !== 'string' || rawUrl.trim() === '')
    return fail('is required (an https:// URL)');
  if (rawUrl.length > 2048) return fail('is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    return fail('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:')
    return fail('must use https:// (plain HTTP and other schemes are rejected)');
  if (url.username || url.password) return fail('must not contain credentials');
  const host = cleanAddress(url.hostname).replace(/\.$/, '');
  if (host === 'localhost' || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return fail(`host ${host} is an internal name`);
  }
  if (net.isIP(host)) {
    if (!isAddressAllowed(host, options.allowList)) {
      return fail(`address ${host} is not public (${classifyAddress(host).reason})`);
    }
    return { ok: true, url: url.toString() };
  }
  if (!host.includes('.')) return fail(`host ${host} is an internal name (no dot)`);
  let addresses: string[];
  try {
    addresses = await (options.lookup ?? defaultLookup)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return fail(`host ${host} does not resolve`);
  const blocked = addresses.filter((address) => !isAddressAllowed(address, options.allowList));
  if (blocked.length > 0) {
    return fail(`host ${host} resolves to a non-public address (${blocked.join(', ')})`);
  }
  return { ok: true, url: url.toString() };
}
