import type { PublicUrls } from '../../runtime/public-urls';

/** Where a form's ingest endpoints, thank-you page and helper script live. */
export function formUrls(urls: PublicUrls, token: string) {
  return {
    submissionUrl: `${urls.ingest}/f/${token}`,
    /** The hosted page (docs/form-pages.md): the same URL, read with GET. */
    pageUrl: `${urls.ingest}/f/${token}`,
    jsonUrl: `${urls.ingest}/json/${token}`,
    thanksUrl: `${urls.ingest}/f/${token}/thanks`,
    autocompleteScriptUrl: `${urls.ingest}/f/${token}/autocomplete.js`,
    /** The ALTCHA widget's challenges and its script (docs/captcha.md). */
    challengeUrl: `${urls.ingest}/f/${token}/challenge`,
    altchaScriptUrl: `${urls.ingest}/f/${token}/altcha.js`,
    helpUrl: `${urls.base}/docs#ingest`,
  };
}
