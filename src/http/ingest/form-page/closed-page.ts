import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import type { ClosedReason, FormLimits } from '../../../domain/forms/form-limits';
import { pageDocument, textParagraphs, type PageChrome } from './page-document';
import { closedMessageOf, pageLanguage } from './page-text';

/**
 * What a hosted page shows instead of the form while the form is closed (docs/form-limits.md):
 * its title and the closed message (the owner's `closed_message`, escaped, or ours in the
 * page's language), no form and no script.
 */
export function formPageClosed(
  page: FormPage,
  closed: { reason: ClosedReason; limits: FormLimits | null | undefined },
  chrome: PageChrome,
): string {
  const message = closedMessageOf(closed.limits, closed.reason, pageLanguage(page));
  const content = `<div class="closed">
<h1>${escapeHtml(page.title)}</h1>
<div role="status">${textParagraphs(message)}</div>
</div>`;
  return pageDocument(page, content, chrome);
}
