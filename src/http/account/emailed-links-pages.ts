import { z } from 'zod';
import { htmlPage } from '../kit/routing/page-operations';

// What the pages behind links in mail share (src/http/plugins/recipients-pages.ts, invitation-unsubscribe-pages.ts).

/** The query of an e-mailed link: its token. */
export const emailedLinkQuery = z.object({
  token: z.string().max(2000).default('').describe('the token of the e-mailed link'),
});

/** The RFC 8058 one-click body a mail provider posts to a `List-Unsubscribe` URL. */
export const oneClickUnsubscribeBody = (id: string) =>
  z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() }).meta({ id });

/**
 * A page answered to an e-mailed link, as documented: it carries the link's token, so no cache
 * keeps it (every guest page is answered no-store, register-pages.ts).
 */
export const emailedLinkPage = (description: string) => ({
  ...htmlPage(description),
  headers: { 'Cache-Control': '`no-store`' },
});
