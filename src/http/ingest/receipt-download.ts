import escapeHtml from 'escape-html';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n/languages';
import { htmlIn, textIn } from './form-page/page-text';

/** A receipt the thank-you page offers: checked to be this instance's, for this form. */
export type OfferedReceipt = { submissionId: string; receipt: string };

/**
 * The receipt as a download (docs/receipts.md): a link to a `data:` URL with `download`, so
 * it works without JavaScript and without another request. A compact JWS is base64url and
 * dots only, so it needs no escaping in the URL; the attributes are escaped all the same.
 */
export function receiptDownloadLink(
  offered: OfferedReceipt | null,
  language: Language = DEFAULT_LANGUAGE,
): string {
  if (!offered) return '';
  const href = `data:application/jose;charset=us-ascii,${offered.receipt}`;
  const filename = `receipt-${offered.submissionId}.jws`;
  const link =
    `<a href="${escapeHtml(href)}" download="${escapeHtml(filename)}">` +
    `${textIn(language, 'thanks.receipt_link')}</a>`;
  return `<p class="receipt">${htmlIn(language, 'thanks.receipt', { link })}</p>`;
}
