import type { Request } from 'express';
import { can } from '../../domain/accounts/principal';
import { findAccountSubmission } from '../../domain/submissions/submission-queries';
import { notFound } from '../kit/errors/http-error';

/**
 * The submission `id` of the caller's account, as the caller may see it: a spam submission
 * stays invisible (404) to keys without the spam scope (docs/api-conventions.md, Authentication and scopes).
 */
export async function findReadableSubmission(req: Request, id: string) {
  const row = await findAccountSubmission(req.em, req.principal!.accountId, id);
  if (!row || (row.is_spam && !can(req.principal!, 'can_read_spam_submissions')))
    throw notFound('submission');
  return row;
}
