/**
 * The `next` of `/login?next=…` when it is a path on this site, else null: signing in must
 * not send anyone to another site (`//evil.example`, `/\\evil.example`, `https://…`).
 */
export function sameSitePath(next: unknown, baseUrl: string): string | null {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length > 2048) return null;
  // A backslash reads as a slash in browsers, which also drop control characters.
  // eslint-disable-next-line no-control-regex
  if (next.startsWith('//') || /[\u0000-\u001f\\]/.test(next)) return null;
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
