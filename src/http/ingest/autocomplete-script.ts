import { RECAPTCHA_V3_ACTION, RESPONSE_FIELDS } from '../../domain/captcha/captcha-settings';
import type { CaptchaWidget } from './captcha-widget';

/**
 * The script behind a form's `autocomplete_script_url`. Added to a page with the embed
 * markup, it submits the form in the background (asking the ingest endpoint for JSON) and
 * shows the result inline instead of navigating away. Without it the form still works.
 * With a CAPTCHA (docs/captcha.md) it adds the widget to a form pasted without it, fetches a
 * reCAPTCHA v3 token before sending, and resets the widget after each answer (a CAPTCHA
 * answer is good once).
 */
export function autocompleteScript(
  token: string,
  submissionUrl: string,
  captcha: CaptchaWidget | null = null,
): string {
  return `(function () {
  'use strict';
  var token = ${JSON.stringify(token)};
  var action = ${JSON.stringify(submissionUrl)};
  var captcha = ${JSON.stringify(captcha).replaceAll('<', '\\u003c')};
  function addWidget(form) {
    if (!captcha || form.querySelector('altcha-widget, .cf-turnstile, .h-captcha, .g-recaptcha, [data-formward-recaptcha-v3]')) return;
    var holder = document.createElement('div');
    holder.innerHTML = captcha.element;
    // Before any file input (ingest checks the CAPTCHA before it writes a file), else the button.
    var before = form.querySelector('input[type=file]') || form.querySelector('[type=submit]');
    if (before) before.parentNode.insertBefore(holder.firstChild, before);
    else form.appendChild(holder.firstChild);
    if (!document.querySelector('script[src="' + captcha.scriptUrl + '"]')) {
      var script = document.createElement('script');
      script.src = captcha.scriptUrl;
      script.async = true;
      document.head.appendChild(script);
    }
  }
  function resetWidget(form) {
    var altcha = form.querySelector('altcha-widget');
    if (altcha && altcha.reset) altcha.reset();
    var v3 = form.querySelector('[data-formward-recaptcha-v3]');
    if (v3) v3.value = '';
    try {
      if (window.turnstile && form.querySelector('.cf-turnstile')) window.turnstile.reset();
      if (window.hcaptcha && form.querySelector('.h-captcha')) window.hcaptcha.reset();
      if (window.grecaptcha && window.grecaptcha.reset && form.querySelector('.g-recaptcha')) window.grecaptcha.reset();
    } catch (e) { /* a widget not rendered yet has nothing to reset */ }
  }
  function withV3Token(form, send) {
    var v3 = form.querySelector('[data-formward-recaptcha-v3]');
    if (!v3 || v3.value || !window.grecaptcha) return send();
    window.grecaptcha.ready(function () {
      window.grecaptcha.execute(v3.getAttribute('data-formward-recaptcha-v3'), { action: ${JSON.stringify(RECAPTCHA_V3_ACTION)} })
        .then(function (value) { v3.value = value; send(); });
    });
  }
  function statusFor(form) {
    var el = form.querySelector('[data-formward-status]');
    if (!el) {
      el = document.createElement('p');
      el.setAttribute('data-formward-status', '');
      el.setAttribute('role', 'status');
      el.setAttribute('aria-live', 'polite');
      form.appendChild(el);
    }
    return el;
  }
  function enhance(form) {
    if (form.__formward) return;
    form.__formward = true;
    addWidget(form);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var status = statusFor(form);
      var button = form.querySelector('[type=submit]');
      if (button) button.disabled = true;
      status.textContent = 'Sending…';
      withV3Token(form, function () { send(form, status, button); });
    });
  }
  // The CAPTCHA's fields first, wherever the widget sits: files after it are written only
  // once it passed, and one before it would be refused.
  var CAPTCHA_FIELDS = ${JSON.stringify(Object.values(RESPONSE_FIELDS))};
  function captchaFirst(data) {
    var ordered = new FormData();
    data.forEach(function (value, name) { if (CAPTCHA_FIELDS.indexOf(name) >= 0) ordered.append(name, value); });
    data.forEach(function (value, name) { if (CAPTCHA_FIELDS.indexOf(name) < 0) ordered.append(name, value); });
    return ordered;
  }
  function send(form, status, button) {
      fetch(action, { method: 'POST', body: captchaFirst(new FormData(form)), headers: { Accept: 'application/json' } })
        .then(function (res) { return res.json(); })
        .then(function (body) {
          if (body.ok) {
            status.textContent = 'Thank you! Your submission has been received.';
            form.reset();
          } else {
            status.textContent = (body.message || 'The submission was not accepted.') +
              (body.errors && body.errors.length ? ' (' + body.errors.join('; ') + ')' : '');
          }
        })
        .catch(function () { status.textContent = 'Could not send the form. Check your connection and try again.'; })
        .then(function () { resetWidget(form); if (button) button.disabled = false; });
  }
  function scan() {
    var forms = document.querySelectorAll('form[data-formward="' + token + '"], form[action="' + action + '"]');
    for (var i = 0; i < forms.length; i++) enhance(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
})();
`;
}
