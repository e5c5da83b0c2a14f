import escapeHtml from 'escape-html';

/** A receipt the thank-you page offers: checked to be this instance's, for this form. */
export type OfferedReceipt = { submissionId: string; receipt: string };

/**
 * The receipt as a download (docs/receipts.md): a link to a `data:` URL with `download`, so
 * it works without JavaScript and without another request. A compact JWS is base64url and
 * dots only, so it needs no escaping in the URL; the attributes are escaped all the same.
 */
export function receiptDownloadLink(offered: OfferedReceipt | null): string {
  if (!offered) return '';
  const href = `data:application/jose;charset=us-ascii,${offered.receipt}`;
  const filename = `receipt-${offered.submissionId}.jws`;
  return (
    `<p class="receipt"><a href="${escapeHtml(href)}" download="${escapeHtml(filename)}">` +
    'Download your receipt</a>: a signed record of what was received.</p>'
  );
}
