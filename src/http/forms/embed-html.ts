import escapeHtml from 'escape-html';
import type { FormField } from '../../domain/forms/form-fields';
import { captchaEmbedLines, type CaptchaWidget } from '../ingest/captcha-widget';
import { embedFieldMarkup } from './embed-field-markup';

// Writes the page-load time into the form's `_ts` field, so ingest can tell how long the form
// took to fill (docs/spam-rules.md). Without JavaScript `_ts` stays empty: "unknown", never spam.
export const FILL_STAMP_SCRIPT =
  `<script>(function (s) { var f = s && s.closest && s.closest('form'); ` +
  `var t = f && f.querySelector('input[name="_ts"]'); if (t) t.value = String(Date.now()); })(document.currentScript);</script>`;

// New forms refuse files (422): the note says how to turn them on before adding a file input.
const FILE_INPUT_NOTE =
  `<!-- Files: turn uploads on first (PATCH /api/forms/{id} with {"accept_files": true}, or ` +
  `"Accept file uploads" in the form's settings on the dashboard), then add e.g. ` +
  `<input type="file" name="attachment"> here, below any CAPTCHA widget -->`;

/**
 * Ready-to-paste markup: a plain HTML form posting to the ingest URL, with the hidden `_hp`
 * honeypot that people never see or fill and the hidden `_ts` page-load stamp. It works
 * without JavaScript; the optional autocomplete script (see the form's
 * `autocomplete_script_url`) upgrades it to inline results. A form with a CAPTCHA gets its
 * widget after the text fields and before where file inputs go.
 */
export function embedHtml(form: {
  name: string;
  token: string;
  submissionUrl: string;
  /** The form's CAPTCHA widget (docs/captcha.md), placed before any file input. */
  captcha?: CaptchaWidget | null;
  /** The field list (docs/form-fields.md); null or absent: a name, e-mail and message form. */
  fields?: FormField[] | null;
  submitLabel?: string | undefined;
}): string {
  const action = escapeHtml(form.submissionUrl);
  const fields = form.fields ?? null;
  const lines = (list: FormField[]) => list.flatMap(embedFieldMarkup).map((line) => `  ${line}`);
  return [
    `<form action="${action}" method="POST" enctype="multipart/form-data" accept-charset="UTF-8" data-formward="${escapeHtml(form.token)}">`,
    ...(fields
      ? lines(fields.filter((f) => f.type !== 'file'))
      : [
          `  <label>Name <input type="text" name="name" autocomplete="name"></label>`,
          `  <label>Email <input type="email" name="email" autocomplete="email" required></label>`,
          `  <label>Message <textarea name="message" rows="5" required></textarea></label>`,
        ]),
    // Browsers send fields in page order, and ingest checks the CAPTCHA before it writes a
    // file: its widget goes before any file input.
    ...captchaEmbedLines(form.captcha ?? null).map((line) => `  ${line}`),
    ...(fields ? lines(fields.filter((f) => f.type === 'file')) : [`  ${FILE_INPUT_NOTE}`]),
    `  <div style="position:absolute;left:-10000px" aria-hidden="true"><label>Leave this empty <input type="text" name="_hp" value="" tabindex="-1" autocomplete="off"></label></div>`,
    `  <input type="hidden" name="_ts" value="">`,
    `  ${FILL_STAMP_SCRIPT}`,
    `  <button type="submit">${escapeHtml(form.submitLabel ?? 'Send')}</button>`,
    `</form>`,
  ].join('\n');
}
