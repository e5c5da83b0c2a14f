/** The accent of a page without one: a blue with 7:1 contrast against white. */
export const DEFAULT_ACCENT = '#1d4ed8';

/**
 * The hosted page's stylesheet (docs/form-pages.md): one column that fills a phone and stays
 * readable on a desktop, controls and choices at least 44px tall (WCAG 2.2 target size), a
 * 16px base so phones do not zoom into inputs, and the accent (checked readable against white
 * when it is set) on the button, links and focus rings. Inline in the page: the ingest CSP
 * allows inline styles, and a custom domain serves only the page's own paths.
 */
export function pageStyles(accent: string): string {
  return `:root{--accent:${accent};--text:#1f2328;--muted:#4b5563;--border:#6b7280;--error:#b91c1c;--bg:#f3f4f6}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:40rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
@media (min-width:40rem){main{padding:3rem 1.5rem}.card{padding:2rem 2.5rem}}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem}
.description p{margin:0 0 .75rem}
a{color:var(--accent);text-decoration-thickness:1px;text-underline-offset:2px}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.required-note{color:var(--muted);font-size:.9375rem;margin:0 0 1.25rem}
.req{color:var(--error);font-weight:700;margin-inline-start:.25em}
.required-note .req{margin:0}
.field{margin:0 0 1.25rem;padding:0;border:0;min-width:0}
.field>label,.field>legend{display:block;font-weight:600;margin:0 0 .25rem;padding:0}
.hint{color:var(--muted);font-size:.9375rem;margin:0 0 .375rem}
.error{color:var(--error);font-weight:600;margin:0 0 .375rem}
.field-invalid{border-inline-start:4px solid var(--error);padding-inline-start:.75rem}
input[type=text],input[type=email],input[type=number],input[type=tel],input[type=url],input[type=date],select,textarea{display:block;width:100%;min-height:2.75rem;padding:.5rem .75rem;font:inherit;color:inherit;background:#fff;border:1px solid var(--border);border-radius:6px}
textarea{min-height:8rem;resize:vertical}
select[multiple]{min-height:7rem;padding:.25rem}
input[type=file]{display:block;width:100%;min-height:2.75rem;padding:.5rem 0;font:inherit}
input[type=file]::file-selector-button{min-height:2.75rem;margin-inline-end:.75rem;padding:.5rem 1rem;font:inherit;border:1px solid var(--border);border-radius:6px;background:#fff;color:var(--text)}
input[aria-invalid=true]:not([type=radio]):not([type=checkbox]),select[aria-invalid=true],textarea[aria-invalid=true]{border:2px solid var(--error)}
input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
.choices{display:grid;gap:.25rem}
.choice{display:flex;align-items:center;gap:.75rem;min-height:2.75rem;padding:.25rem .5rem;border-radius:6px;cursor:pointer;font-weight:400}
.choice:hover{background:var(--bg)}
.choice input,.check input{flex:none;width:1.375rem;height:1.375rem;margin:0;accent-color:var(--accent)}
.check{display:flex;align-items:flex-start;gap:.75rem}
.check input{margin-top:.6875rem}
.check label{display:flex;align-items:center;min-height:2.75rem;font-weight:600;cursor:pointer}
.error-summary{border:3px solid var(--error);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1.5rem}
.error-summary h2{font-size:1.25rem;margin:0 0 .5rem}
.error-summary ul{margin:0;padding-inline-start:1.25rem}
.error-summary li{margin:.25rem 0}
.error-summary a{color:var(--error);font-weight:600}
.error-summary p{margin:0 0 .5rem}
.captcha{margin:0 0 1.25rem}
button{display:block;width:100%;min-height:3rem;padding:.75rem 1.5rem;font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:8px;cursor:pointer}
button:hover{filter:brightness(.9)}
@media (min-width:40rem){button{display:inline-block;width:auto;min-width:10rem}}
.hp{position:absolute;inset-inline-start:-10000px;width:1px;height:1px;overflow:hidden}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.thanks,.closed{text-align:center}
.manage-link{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem;text-align:left;overflow-wrap:anywhere}
.stored dt{font-weight:600;margin:.75rem 0 0}.stored dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.notice{border-left:4px solid var(--accent);padding-left:.75rem;margin:0 0 1rem}
.thanks p,.closed p{margin:0 0 .75rem}
.page-footer{max-width:40rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.875rem;text-align:center}
.page-footer p{margin:.25rem 0}
.page-footer a{color:var(--text)}`;
}
