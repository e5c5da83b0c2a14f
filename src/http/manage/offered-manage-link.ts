import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import { openManageLink } from '../../domain/manage/managed-submission';
import { manageUrl, parseManageToken } from '../../domain/manage/manage-secret';
import { setNoStore } from '../kit/middleware/no-store';

/**
 * The manage link the thank-you page shows (docs/manage-links.md): from its `?manage=`
 * token, only when it opens a submission of this form; else null, and nothing is shown.
 */
export async function offeredManageUrl(
  em: EntityManager,
  ingestUrl: string,
  formId: string,
  token: string | undefined,
): Promise<string | null> {
  const link = token ? parseManageToken(token) : null;
  if (!link) return null;
  // A filled honeypot's thank-you page looks like any other (docs/spam-rules.md).
  const opened = await openManageLink(em, link, Date.now(), { evenSpam: true });
  if (!opened || opened.row.form_id !== formId) return null;
  return manageUrl(ingestUrl, link.submissionId, link.secret);
}

/**
 * Headers of every answer that holds or sits at a manage link: kept by no cache, its address
 * (which holds the secret) sent to no other page, and out of search engines.
 */
export function setManageLinkHeaders(res: Response): void {
  setNoStore(res);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
}
