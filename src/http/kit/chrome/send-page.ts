import type { Response } from 'express';
import { dashboardCsp } from '../middleware/security-headers';
import { runMiddleware } from '../middleware/run-middleware';
import type { TemplateName, Templates } from './template-data';
import { renderPage, type Chrome } from './render-page';

/** Sends a dashboard page with the dashboard's Content-Security-Policy. */
export async function sendPage<T extends TemplateName>(
  res: Response,
  status: number,
  template: T,
  title: string,
  chrome: Chrome,
  data: Templates[T],
): Promise<void> {
  await useDashboardCsp(res);
  res
    .status(status)
    .type('html')
    .send(renderPage(template, title, chrome, data));
}

/** For pages answered through defineRoute: the same policy, set before the answer is sent. */
export function useDashboardCsp(res: Response): Promise<void> {
  return runMiddleware(dashboardCsp, res.req, res);
}
