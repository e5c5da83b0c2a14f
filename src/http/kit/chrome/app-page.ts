import type { Request, Response } from 'express';
import { listUserAccounts } from '../../../domain/accounts/memberships';
import { takeFlash } from '../session/flash';
import { revealedData } from '../session/reveal-once';
import { sendPage } from './send-page';
import { sessionOf } from '../session/session-guard';
import type { TemplateName, Templates } from './template-data';

/**
 * Sends a signed-in page (definePage's `render`, and the 404 pages of helpers): the layout
 * gets the person, the session's CSRF token, the navigation state and any flash message; and
 * a secret kept for this page by revealOnce.
 * Like every /app answer it is `no-store` (dashboardRouter).
 */
export async function sendAppPage<T extends TemplateName>(
  req: Request,
  res: Response,
  page: { status?: number; template: T; title: string },
  data: Templates[T],
): Promise<void> {
  const session = sessionOf(res);
  const chrome = {
    user: session,
    csrfToken: session.csrfToken,
    path: req.baseUrl + req.path,
    flash: takeFlash(req, res),
    // The header's switcher (docs/teams.md), and what the role may change (viewers: nothing).
    accounts: await listUserAccounts(req.em, session.userId),
    canChange: session.role !== 'viewer',
  };
  // The secret revealOnce kept for this page joins its data (api-keys.eta, plugins.eta).
  const revealed = revealedData(res);
  return sendPage(res, page.status ?? 200, page.template, page.title, chrome, {
    ...data,
    ...revealed,
  });
}
