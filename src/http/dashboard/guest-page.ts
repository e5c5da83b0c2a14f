import type { Request, Response } from 'express';
import { takeFlash } from './flash';
import { guestCsrfToken } from './guest-csrf';
import { useDashboardCsp } from './send-page';
import { renderPage } from './views';

/**
 * A signed-out page (sign-in, sign-up, forgot, reset…) as a defineRoute answer: the
 * dashboard's CSP, the signed-out forms' CSRF token, and any pending flash message.
 */
export async function guestPage<S extends number>(
  req: Request,
  res: Response,
  baseUrl: string,
  page: { status: S; template: string; title: string; altcha?: boolean },
  data: Record<string, unknown> = {},
): Promise<{ status: S; content: string }> {
  await useDashboardCsp(res);
  const chrome = {
    csrfToken: guestCsrfToken(req, res, baseUrl),
    flash: takeFlash(req, res),
    altcha: page.altcha,
  };
  return { status: page.status, content: renderPage(page.template, page.title, chrome, data) };
}

/**
 * One kind of signed-out page (sign-in, sign-up, reset…) as a function of its status and
 * data, with the data every answer of that kind carries.
 */
export function guestPageKind(
  page: { template: string; title: string; altcha?: boolean },
  always: Record<string, unknown> = {},
) {
  return <S extends number>(
    req: Request,
    res: Response,
    baseUrl: string,
    status: S,
    data: Record<string, unknown> = {},
  ) => guestPage(req, res, baseUrl, { status, ...page }, { ...always, ...data });
}
