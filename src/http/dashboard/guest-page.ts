import type { Request, Response } from 'express';
import { takeFlash } from './flash';
import { guestCsrfToken } from './guest-csrf';
import { useDashboardCsp } from './send-page';
import type { TemplateName } from './templates';
import { renderPage } from './views';

/**
 * A signed-out page (sign-in, sign-up, forgot, reset…) as a defineRoute answer: the
 * dashboard's CSP, the signed-out forms' CSRF token, and any pending flash message.
 */
export async function guestPage<S extends number>(
  req: Request,
  res: Response,
  baseUrl: string,
  page: { status: S; template: TemplateName; title: string; altcha?: boolean },
  data: Record<string, unknown> = {},
): Promise<{ status: S; content: string }> {
  await useDashboardCsp(res);
  const chrome = {
    csrfToken: guestCsrfToken(req, res, baseUrl),
    flash: takeFlash(req, res),
    altcha: page.altcha,
  };
  // Not yet checked against templates.ts: these pages are still defineRoute operations, whose
  // data is built in src/http/routes (the signed-out templates take GuestData there).
  const content = renderPage(page.template, page.title, chrome, data as never);
  return { status: page.status, content };
}

/**
 * One kind of signed-out page (sign-in, sign-up, reset…) as a function of its status and
 * data, with the data every answer of that kind carries.
 */
export function guestPageKind(
  page: { template: TemplateName; title: string; altcha?: boolean },
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
