import escapeHtml from 'escape-html';
import { MANAGE_TEXTS } from './manage-texts';

/**
 * The manage link as the thank-you page shows it, once after the post (docs/manage-links.md):
 * the link, selectable, with why to keep it. Empty without one.
 */
export function manageLinkBox(url: string | null): string {
  if (!url) return '';
  const href = escapeHtml(url);
  return `<div class="manage-link">
<p>${escapeHtml(MANAGE_TEXTS.linkIntro)}</p>
<p><strong>${escapeHtml(MANAGE_TEXTS.linkLabel)}:</strong> <a href="${href}" rel="noreferrer">${href}</a></p>
</div>`;
}
