import escapeHtml from 'escape-html';
import { page } from './layout';

export function loginPage(csrf: string, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to Formward</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="POST" action="/login">
  <input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
  <label>E-mail <input type="email" name="email" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
  );
}

export function homePage(signedIn: { accountId: string; csrfToken: string } | null): string {
  const session = signedIn
    ? `<p>Signed in to account <code>${escapeHtml(signedIn.accountId)}</code>.</p>
<ul><li><a href="/api">API root</a></li><li><a href="/api/forms">Your forms</a></li><li><a href="/api/stats">Stats</a></li></ul>
<form method="POST" action="/logout"><input type="hidden" name="_csrf" value="${escapeHtml(signedIn.csrfToken)}"><button type="submit">Sign out</button></form>`
    : `<p><a href="/login">Sign in</a></p>`;
  return page(
    'Formward',
    `<h1>Formward</h1><p>A self-hostable form backend.</p>${session}
<p><a href="/docs">API reference</a> · <a href="/api/openapi.json">OpenAPI document</a></p>`,
  );
}
