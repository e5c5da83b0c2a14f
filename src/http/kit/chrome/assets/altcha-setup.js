// The ALTCHA widget's `external` build bundles no worker: register ours (the PBKDF2 worker
// of the widget's package, served from /assets) so the CSP needs only worker-src 'self'.
/* global $altcha, Worker */
$altcha.algorithms.set('PBKDF2/SHA-256', () => new Worker('/assets/altcha-pbkdf2.js'));
