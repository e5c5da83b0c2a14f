import escapeHtml from 'escape-html';
import type { Language } from '../../i18n/languages';
import { textIn } from '../ingest/form-page/page-text';

/**
 * The manage link as the thank-you page shows it, once after the post (docs/manage-links.md):
 * the link, selectable, with why to keep it, in the page's language. Empty without one.
 */
export function manageLinkBox(url: string | null, language: Language): string {
  if (!url) return '';
  const href = escapeHtml(url);
  return `<div class="manage-link">
<p>${textIn(language, 'manage.link_intro')}</p>
<p><strong>${textIn(language, 'manage.link_label')}:</strong> <a href="${href}" rel="noreferrer">${href}</a></p>
</div>`;
}
