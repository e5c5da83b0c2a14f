import { domainToASCII } from 'node:url';

// A webhook aimed at this service's own public URLs would post every delivery back in as a
// new submission, which delivers again: a loop (docs/webhook-delivery.md, Address guard).

/** The ingest paths (`/f/{token}`, `/json/{token}`); Express matches them case-insensitively. */
const INGEST_PATH = /^\/(f|json)\//i;

/**
 * The URLs where this service answers, for every loop guard: BASE_URL, INGEST_URL, and
 * FORM_PAGES_TARGET (the host custom domains point at, which serves every form's page and
 * ingest path), taken on HTTPS and HTTP's standard ports since it is given as a bare host.
 */
export function ownServiceUrls(
  urls: { base: string; ingest: string },
  formPagesTarget: string | null,
): string[] {
  if (!formPagesTarget) return [urls.base, urls.ingest];
  const host = formPagesTarget.includes(':') ? `[${formPagesTarget}]` : formPagesTarget;
  return [urls.base, urls.ingest, `https://${host}`, `http://${host}`];
}

type Place = { scheme: string; host: string; port: string };

/** A host as the network sees it: lower case, punycode (IDNA), without the root's trailing dot. */
function normalHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  return host.startsWith('[') ? host : domainToASCII(host) || host;
}

/** Scheme, host and port, the default port spelled out so `:443` and nothing compare equal. */
function placeOf(url: URL): Place {
  const scheme = url.protocol.toLowerCase();
  const port = url.port || (scheme === 'https:' ? '443' : scheme === 'http:' ? '80' : '');
  return { scheme, host: normalHost(url.hostname), port };
}

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Why `url` points at this service itself (one of `ownUrls`: ownServiceUrls), or null:
 * the same scheme, host and port as one of them, or one of our ingest paths on one of our hosts
 * whatever the scheme and port (a proxy may serve them on another).
 */
export function ownOriginError(url: URL, ownUrls: readonly string[]): string | null {
  const target = placeOf(url);
  const path = url.pathname.replace(/^\/+/, '/');
  for (const own of ownUrls.map(parsed)) {
    if (!own) continue;
    const ours = placeOf(own);
    if (ours.host !== target.host) continue;
    const origin = `${ours.scheme}//${ours.host}:${ours.port}`;
    if (ours.scheme === target.scheme && ours.port === target.port) {
      return `url: points at this Formward service itself (${origin}); a webhook there would send every submission back in as a new one, in a loop`;
    }
    if (INGEST_PATH.test(path)) {
      return `url: points at this Formward service's ingest path (${path.split('/', 2).join('/')}/ on ${ours.host}); a webhook there would send every submission back in as a new one, in a loop`;
    }
  }
  return null;
}
