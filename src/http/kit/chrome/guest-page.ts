import type { Request, Response } from 'express';
import { takeFlash } from '../session/flash';
import { guestCsrfToken } from '../session/guest-csrf';
import { sendPage } from './send-page';
import type { TemplateName, Templates } from './template-data';

/**
 * Sends a signed-out page (sign-in, sign-up, forgot, reset, a recipient link…): the
 * dashboard's CSP, the signed-out forms' CSRF token, and any pending flash message. It is
 * `render` of a guest page, and what such a page answers in another template (a message).
 */
export function sendGuestPage<T extends TemplateName>(
  req: Request,
  res: Response,
  baseUrl: string,
  page: { status?: number; template: T; title: string; altcha?: boolean },
  data: Templates[T],
): Promise<void> {
  const chrome = {
    csrfToken: guestCsrfToken(req, res, baseUrl),
    flash: takeFlash(req, res),
    altcha: page.altcha,
  };
  return sendPage(res, page.status ?? 200, page.template, page.title, chrome, data);
}
