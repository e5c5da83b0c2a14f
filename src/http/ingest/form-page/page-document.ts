import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { DEFAULT_ACCENT, pageStyles } from './page-styles';

/**
 * The HTML document around a hosted page's content (the form, or its thank-you message):
 * the page's title, the viewport for phones and its stylesheet. `content` is markup,
 * already escaped.
 */
/** What every hosted page ends with: the operator's abuse contact, when there is one. */
export type PageChrome = { abuseContact: string | null };

/**
 * Pages on our host or a customer's domain can be abused for phishing: every page says it is
 * a hosted form, warns against sending passwords, and links to where to report it.
 */
function pageFooter(chrome: PageChrome): string {
  const report = chrome.abuseContact
    ? ` <a href="${escapeHtml(chrome.abuseContact)}">Report abuse</a>`
    : '';
  return `<footer class="page-footer">
<p>Never submit passwords through this form.</p>
<p>A form hosted with Formward.${report}</p>
</footer>`;
}

export function pageDocument(
  page: FormPage,
  content: string,
  chrome: PageChrome,
  titlePrefix = '',
): string {
  const accent = page.accent_color ?? DEFAULT_ACCENT;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(titlePrefix + page.title)}</title>
<style>${pageStyles(accent)}</style>
</head>
<body>
<main>
<div class="card">
${content}
</div>
</main>
${pageFooter(chrome)}
</body>
</html>`;
}

/**
 * Plain text as paragraphs: a blank line starts a new one, a single line break stays a line
 * break. Everything is escaped.
 */
export function textParagraphs(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}
