import escapeHtml from 'escape-html';
import { RECAPTCHA_V3_ACTION, type StoredCaptcha } from '../../domain/captcha/captcha-settings';

/** The pieces of a CAPTCHA widget: the script to load and the element that shows it. */
export type CaptchaWidget = {
  scriptUrl: string;
  /** The widget's element, escaped markup. */
  element: string;
  /** reCAPTCHA v3 has no element to click: a token is fetched when the form is sent. */
  recaptchaV3SiteKey?: string;
};

/** The providers' official scripts; ALTCHA's is served by the ingest server. */
const SCRIPTS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js',
  recaptcha: 'https://www.google.com/recaptcha/api.js',
} as const;

const CLASSES = { turnstile: 'cf-turnstile', hcaptcha: 'h-captcha', recaptcha: 'g-recaptcha' };

/** The widget a form's captcha needs in its page, or null without a captcha. */
export function captchaWidget(
  captcha: StoredCaptcha | null,
  urls: { challengeUrl: string; altchaScriptUrl: string },
): CaptchaWidget | null {
  if (!captcha) return null;
  if (captcha.provider === 'altcha')
    return {
      scriptUrl: urls.altchaScriptUrl,
      element: `<altcha-widget challenge="${escapeHtml(urls.challengeUrl)}" name="altcha"></altcha-widget>`,
    };
  const siteKey = escapeHtml(captcha.siteKey);
  if (captcha.provider === 'recaptcha' && captcha.minScore !== undefined)
    return {
      scriptUrl: `${SCRIPTS.recaptcha}?render=${encodeURIComponent(captcha.siteKey)}`,
      element: `<input type="hidden" name="g-recaptcha-response" value="" data-formward-recaptcha-v3="${siteKey}">`,
      recaptchaV3SiteKey: captcha.siteKey,
    };
  return {
    scriptUrl: SCRIPTS[captcha.provider],
    element: `<div class="${CLASSES[captcha.provider]}" data-sitekey="${siteKey}"></div>`,
  };
}

// reCAPTCHA v3 without the form script: on the first submit, fetch a token (for the action
// ingest expects) into the hidden field, then send the form again. Registered before the form script's own handler, it stops
// that one until the token is there.
export const RECAPTCHA_V3_SCRIPT =
  `<script>(function (s) { var f = s && s.closest && s.closest('form'); if (!f) return; ` +
  `var t = f.querySelector('input[data-formward-recaptcha-v3]'); ` +
  `f.addEventListener('submit', function (e) { if (t.value || !window.grecaptcha) return; ` +
  `e.preventDefault(); e.stopImmediatePropagation(); ` +
  `grecaptcha.ready(function () { grecaptcha.execute(t.getAttribute('data-formward-recaptcha-v3'), { action: ${JSON.stringify(RECAPTCHA_V3_ACTION).replaceAll('"', "'")} })` +
  `.then(function (token) { t.value = token; if (f.requestSubmit) f.requestSubmit(); else f.submit(); }); }); }); })(document.currentScript);</script>`;

/** The widget's lines of the embed markup: its script tag and element (and v3's helper). */
export function captchaEmbedLines(widget: CaptchaWidget | null): string[] {
  if (!widget) return [];
  const lines = [
    `<script src="${escapeHtml(widget.scriptUrl)}" async defer></script>`,
    widget.element,
  ];
  if (widget.recaptchaV3SiteKey) lines.push(RECAPTCHA_V3_SCRIPT);
  return lines;
}
