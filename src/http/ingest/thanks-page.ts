import escapeHtml from 'escape-html';
import { receiptDownloadLink, type OfferedReceipt } from './receipt-download';
import { manageLinkBox } from '../manage/manage-link-box';

/**
 * The default page a browser lands on after submitting a form without a redirect URL, with
 * the submission's receipt to download when it came with one.
 */
export function thanksPage(
  formName: string,
  backUrl: string | null,
  receipt: OfferedReceipt | null = null,
  manageUrl: string | null = null,
): string {
  const back =
    backUrl && /^https?:\/\//i.test(backUrl)
      ? `<p><a href="${escapeHtml(backUrl)}">Back to the form</a></p>`
      : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Thank you</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;text-align:center">
<h1>Thank you!</h1>
<p>Your submission to <strong>${escapeHtml(formName)}</strong> has been received.</p>
${receiptDownloadLink(receipt)}
${manageLinkBox(manageUrl, 'en')}
${back}
</body>
</html>`;
}
