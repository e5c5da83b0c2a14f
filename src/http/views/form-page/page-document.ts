import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import { DEFAULT_ACCENT, pageStyles } from './page-styles';

/**
 * The HTML document around a hosted page's content (the form, or its thank-you message):
 * the page's title, the viewport for phones and its stylesheet. `content` is markup,
 * already escaped.
 */
export function pageDocument(page: FormPage, content: string, titlePrefix = ''): string {
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
