import type { PublicUrls } from '../../../runtime/public-urls';

const hostOf = (url: string) =>
  new URL(url).hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');

/**
 * The hosts this service answers on with its whole surface: BASE_URL's, INGEST_URL's and
 * FORM_PAGES_TARGET (read at each use: without BASE_URL the URLs follow the bound port).
 */
export function serviceHosts(urls: PublicUrls, formPagesTarget: string): string[] {
  return [...new Set([hostOf(urls.base), hostOf(urls.ingest), formPagesTarget])];
}
