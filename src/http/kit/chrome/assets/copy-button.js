// Copy buttons: <button type="button" class="copy" data-copy-target="ID"> copies the text of
// the element with that id (a key shown once, the embed snippet, request examples). Without
// the clipboard API (an http:// page not on localhost) the text is selected for Ctrl+C.
/* global document, window, navigator, Element */
(function () {
  'use strict';

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function announce(button, text) {
    var label = button.getAttribute('data-label') || button.textContent;
    button.setAttribute('data-label', label);
    button.textContent = text;
    window.setTimeout(function () {
      button.textContent = label;
    }, 2000);
  }

  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!button) return;
    var target = document.getElementById(button.getAttribute('data-copy-target') || '');
    if (!target) return;
    var text = target.textContent || '';
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () {
          announce(button, 'Copied');
        },
        function () {
          selectText(target);
          announce(button, 'Press Ctrl+C');
        },
      );
    } else {
      selectText(target);
      announce(button, 'Press Ctrl+C');
    }
  });
})();
