import path from 'node:path';
import { Eta } from 'eta';
import { roleAllows, type MemberRole, type Need } from '../../../domain/accounts/member-roles';
import type { Flash } from '../session/flash';
import type { TemplateName, Templates } from './template-data';

/**
 * The page templates (`templates/*.eta`, copied next to the compiled code by `npm run build`).
 * autoEscape: every `<%= %>` is HTML-escaped; `<%~ %>` (raw) is for the layout's body only.
 */
const eta = new Eta({
  views: path.join(__dirname, 'templates'),
  autoEscape: true,
  cache: true,
});

/**
 * One entry of the signed-in header's navigation. Later pages add theirs here; `need` shows
 * it only to a role that may open it.
 */
export type NavItem = { href: string; label: string; need?: Need };
export const NAV: readonly NavItem[] = [
  { href: '/app', label: 'Overview' },
  { href: '/app/forms', label: 'Forms' },
  { href: '/app/submissions', label: 'Submissions' },
  { href: '/app/stats', label: 'Stats' },
  { href: '/app/domains', label: 'Domains' },
  { href: '/app/keys', label: 'API keys' },
  { href: '/app/team', label: 'Team' },
  { href: '/app/audit', label: 'Audit log', need: 'can_create_forms' },
  { href: '/app/settings', label: 'Settings' },
];

/** What the layout needs besides the page's own data. */
export type Chrome = {
  /** The signed-in person, for the header; absent on signed-out pages. */
  user?: { email: string; accountName: string; accountId?: string; role?: MemberRole };
  /** The signed-in user's accounts, for the header's switcher. */
  accounts?: readonly { accountId: string; name: string }[];
  /** Whether the member's role may change anything (a viewer's pages hide the controls). */
  canChange?: boolean;
  /** The session's CSRF token, or the signed-out forms' token (guest-csrf.ts). */
  csrfToken: string;
  /** The path of the page, to mark its navigation entry. */
  path?: string;
  flash?: Flash | null;
  /** Load the ALTCHA widget (the sign-up page). */
  altcha?: boolean;
};

/**
 * Renders `templates/<template>.eta` inside the layout. The template sees `it.title`, `it.chrome`,
 * `it.nav` and the page's data (template-data.ts says which data each template takes).
 */
export function renderPage<T extends TemplateName>(
  template: T,
  title: string,
  chrome: Chrome,
  data: Templates[T],
): string {
  const role = chrome.user?.role;
  const nav = NAV.filter((item) => !item.need || (role && roleAllows(role, item.need)));
  return eta.render(`./${template}`, { ...data, title, chrome, nav });
}
