import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { pageDocument, textParagraphs, type PageChrome } from './page-document';
import { receiptDownloadLink, type OfferedReceipt } from '../receipt-download';
import { pageLanguage, successMessageOf, textIn } from './page-text';
import { manageLinkBox } from '../../manage/manage-link-box';

/**
 * Where a hosted page's browser lands after a successful post (post/redirect/get, so a reload
 * sends nothing twice): the page's success message in the page's style, and a way back to
 * send another answer; the submission's receipt to download when it came with one.
 */
export function formPageThanks(
  page: FormPage,
  base: string,
  chrome: PageChrome,
  receipt: OfferedReceipt | null = null,
  manageUrl: string | null = null,
): string {
  const language = pageLanguage(page);
  const content = `<div class="thanks">
<h1>${escapeHtml(page.title)}</h1>
<div role="status">${textParagraphs(successMessageOf(page, language))}</div>
${receiptDownloadLink(receipt, language)}
${manageLinkBox(manageUrl, language)}
<p><a href="${escapeHtml(base)}">${textIn(language, 'thanks.send_another')}</a></p>
</div>`;
  return pageDocument(page, content, chrome);
}
