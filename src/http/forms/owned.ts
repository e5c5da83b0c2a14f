import type { Request, Response } from 'express';
import type { Form, Plugin } from '../../domain/entities';
import { findAccountForm } from '../../domain/forms/forms';
import { findFormPlugin } from '../../plugins/manage/plugins';
import { sendAppPage } from '../kit/chrome/app-page';
import { sessionOf } from '../kit/session/session-guard';

/**
 * The form or plugin a dashboard URL names, when it is the signed-in account's; otherwise a
 * 404 page is sent and null returned (another account's ids look exactly like missing ones).
 */
export async function ownedForm(req: Request, res: Response, formId: string): Promise<Form | null> {
  const form = await findAccountForm(req.em, sessionOf(res).accountId, formId);
  if (!form) await sendNotFound(req, res, 'form');
  return form;
}

/** A plugin, of any type, of one of the account's forms. */
export async function ownedPlugin(
  req: Request,
  res: Response,
  params: { formId: string; pluginId: string },
): Promise<{ form: Form; plugin: Plugin } | null> {
  const form = await ownedForm(req, res, params.formId);
  if (!form) return null;
  const plugin = await findFormPlugin(req.em, form.id, params.pluginId);
  if (plugin) return { form, plugin };
  await sendNotFound(req, res, 'plugin');
  return null;
}

export function sendNotFound(req: Request, res: Response, what: string): Promise<void> {
  return sendAppPage(
    req,
    res,
    { status: 404, template: 'message', title: 'Not found' },
    {
      lines: [`There is no such ${what} in this account.`],
      link: { href: '/app', label: 'Back to the overview' },
    },
  );
}

/** `?page=` as a page number (1 when absent or nonsense). */
export function pageNumber(req: Request): number {
  const page = Number(req.query.page);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}
