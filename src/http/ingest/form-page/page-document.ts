import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { textDirection, type Language } from '../../../i18n/languages';
import { DEFAULT_ACCENT, pageStyles } from './page-styles';
import { pageLanguage, textIn } from './page-text';

/** What every hosted page ends with: the operator's abuse contact, when there is one. */
export type PageChrome = { abuseContact: string | null };

/**
 * Pages on our host or a customer's domain can be abused for phishing: every page says it is
 * a hosted form, warns against sending passwords, and links to where to report it.
 */
function pageFooter(chrome: PageChrome, language: Language): string {
  const report = chrome.abuseContact
    ? ` <a href="${escapeHtml(chrome.abuseContact)}">${textIn(language, 'footer.report_abuse')}</a>`
    : '';
  return `<footer class="page-footer">
<p>${textIn(language, 'footer.no_passwords')}</p>
<p>${textIn(language, 'footer.hosted')}${report}</p>
</footer>`;
}

/**
 * The HTML document around a hosted page's content (the form, or its thank-you message):
 * its language and direction, the page's title (after "Error:" in the page's language when
 * `error`), the viewport for phones and its stylesheet. `content` is markup, already escaped.
 */
export function pageDocument(
  page: FormPage,
  content: string,
  chrome: PageChrome,
  error = false,
): string {
  const accent = page.accent_color ?? DEFAULT_ACCENT;
  const language = pageLanguage(page);
  const title = error
    ? textIn(language, 'page.title_error', { title: page.title })
    : escapeHtml(page.title);
  return `<!doctype html>
<html lang="${language}" dir="${textDirection(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${pageStyles(accent)}</style>
</head>
<body>
<main>
<div class="card">
${content}
</div>
</main>
${pageFooter(chrome, language)}
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
