import type { Request, Response } from 'express';
import { sendAppPage } from './app-page';

/**
 * A 404 page for a thing the account does not have: another account's things answer the
 * same as missing ones.
 */
export function sendNotFound(req: Request, res: Response, thing: string): Promise<void> {
  return sendAppPage(
    req,
    res,
    { status: 404, template: 'message', title: 'Not found' },
    { lines: [`There is no such ${thing} in your account.`], error: true },
  );
}
