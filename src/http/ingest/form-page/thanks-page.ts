import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { pageDocument, textParagraphs, type PageChrome } from './page-document';

/**
 * Where a hosted page's browser lands after a successful post (post/redirect/get, so a reload
 * sends nothing twice): the page's success message in the page's style, and a way back to
 * send another answer.
 */
export function formPageThanks(page: FormPage, base: string, chrome: PageChrome): string {
  const content = `<div class="thanks">
<h1>${escapeHtml(page.title)}</h1>
<div role="status">${textParagraphs(page.success_message)}</div>
<p><a href="${escapeHtml(base)}">Send another response</a></p>
</div>`;
  return pageDocument(page, content, chrome);
}
