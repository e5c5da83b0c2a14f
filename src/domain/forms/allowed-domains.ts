/**
 * With `allowed_domains` empty any origin may post. Otherwise the host of `Origin` (or,
 * lacking it, `Referer`) must equal a listed domain or be a subdomain of one
 * (docs/api-conventions.md, docs/api/ingest.md).
 */
export function originAllowed(
  allowedDomains: string[],
  origin: string | undefined,
  referer: string | undefined,
): boolean {
  if (allowedDomains.length === 0) return true;
  const host = hostOf(origin && origin !== 'null' ? origin : referer);
  if (!host) return false;
  return allowedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}
