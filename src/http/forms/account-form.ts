import type { Request, Response } from 'express';
import { findAccountForm } from '../../domain/forms/forms';
import type { Form } from '../../domain/entities';
import type { Principal } from '../../domain/accounts/principal';
import { sendAppPage } from '../kit/chrome/app-page';
import { type DashboardSession, sessionOf } from '../kit/session/session-guard';

/** The signed-in person as the API's views see a session: the scopes of their role. */
export const sessionPrincipal = (session: DashboardSession): Principal => ({
  kind: 'session' as const,
  sessionId: session.sessionId,
  userId: session.userId,
  accountId: session.accountId,
  csrfToken: session.csrfToken,
  role: session.role,
  scopes: session.scopes,
});

/** The account's form `:id` (id or endpoint token), or a 404 page and null. */
export async function formOr404(req: Request, res: Response): Promise<Form | null> {
  const form = await findAccountForm(req.em, sessionOf(res).accountId, String(req.params.id));
  if (form) return form;
  const lines = ['There is no such form in this account.'];
  const link = { href: '/app/forms', label: 'All forms' };
  await sendAppPage(
    req,
    res,
    { status: 404, template: 'message', title: 'Form not found' },
    { lines, link, error: true },
  );
  return null;
}
