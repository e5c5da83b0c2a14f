/**
 * The host custom domains point at: FORM_PAGES_TARGET, else the ingest URL's host (read at
 * each use: without BASE_URL the ingest URL follows the port the server bound).
 */
export function formPagesTarget(configured: string | null, ingestUrl: string): string {
  return configured ?? new URL(ingestUrl).hostname.replace(/^\[(.*)\]$/, '$1');
}
