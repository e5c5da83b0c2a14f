import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { pageDocument, textParagraphs, type PageChrome } from './page-document';

/**
 * What a hosted page shows instead of the form while the form is closed (docs/form-limits.md):
 * its title and the closed message (the owner's `closed_message`, escaped, or ours), no form
 * and no script.
 */
export function formPageClosed(page: FormPage, message: string, chrome: PageChrome): string {
  const content = `<div class="closed">
<h1>${escapeHtml(page.title)}</h1>
<div role="status">${textParagraphs(message)}</div>
</div>`;
  return pageDocument(page, content, chrome);
}
