/**
 * The `next` of `/login?next=…` when it is a path on this site, else null: signing in must
 * not send anyone to another site. The WHATWG URL parser (the browser's) resolves it against
 * the site's origin, and the answer is the resolved path, never the raw text: `/.//evil.example`
 * resolves to the path `//evil.example`, which a browser reads as another host, so a path
 * whose first segment is empty (also when its slashes are percent-encoded) is refused too.
 */
export function sameSitePath(next: unknown, baseUrl: string): string | null {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length > 2048) return null;
  // A backslash reads as a slash in browsers, which also drop control characters.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return null;
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(next, base.origin);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username || url.password) return null;
  if (/^\/(\/|%2f|%5c)/i.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
