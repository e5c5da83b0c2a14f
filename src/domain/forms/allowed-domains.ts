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
  return host !== null && hostInDomains(allowedDomains, host);
}

/** Whether `host` is one of the domains or a subdomain of one (a trailing dot and case aside). */
export function hostInDomains(domains: readonly string[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

/**
 * Whether a post came from a page of `expectedOrigin` (scheme, host and port), by its
 * `Origin` or, lacking it, its `Referer`: a form's own hosted page (docs/form-pages.md).
 */
export function sameOrigin(
  origin: string | undefined,
  referer: string | undefined,
  expectedOrigin: string,
): boolean {
  const from = originOf(origin && origin !== 'null' ? origin : referer);
  return from !== null && from === originOf(expectedOrigin);
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? null : parsed.origin;
  } catch {
    return null;
  }
}

/**
 * The domains a form's posts may come from: `allowed_domains`, plus the form's own custom
 * domain when the list is not empty (its page posts from there; docs/custom-domains.md). An
 * empty list stays empty: any origin.
 */
export function formPostingDomains(form: {
  allowedDomains: readonly string[];
  domain?: string | null;
}): string[] {
  if (form.allowedDomains.length === 0 || !form.domain) return [...form.allowedDomains];
  return [...form.allowedDomains, form.domain];
}
