/**
 * The script behind a form's `autocomplete_script_url`. Added to a page with the embed
 * markup, it submits the form in the background (asking the ingest endpoint for JSON) and
 * shows the result inline instead of navigating away. Without it the form still works.
 */
export function autocompleteScript(token: string, submissionUrl: string): string {
  return `(function () {
  'use strict';
  var token = ${JSON.stringify(token)};
  var action = ${JSON.stringify(submissionUrl)};
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
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var status = statusFor(form);
      var button = form.querySelector('[type=submit]');
      if (button) button.disabled = true;
      status.textContent = 'Sending…';
      fetch(action, { method: 'POST', body: new FormData(form), headers: { Accept: 'application/json' } })
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
        .then(function () { if (button) button.disabled = false; });
    });
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
