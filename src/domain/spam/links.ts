/** More links than this, counted over all text fields together, is spam. */
export const MAX_LINKS = 3;

// A link starts with a scheme (http, https, ftp) or `www.`; the whole token is consumed so
// `https://www.example.com` counts once. Bare domains (`example.com`) and e-mail addresses
// are not counted: ordinary messages mention them.
const LINK = /(?:(?:https?|ftp):\/\/|www\.)[^\s<>"'\]]*/gi;

export function countLinks(texts: readonly string[]): number {
  let count = 0;
  for (const text of texts) count += text.match(LINK)?.length ?? 0;
  return count;
}

export function hasTooManyLinks(texts: readonly string[]): boolean {
  return countLinks(texts) > MAX_LINKS;
}
