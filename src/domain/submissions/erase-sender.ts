import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { UseCaseAudit } from '../audit/use-case-audit';
import { eraseSender } from './submission-changes';

/**
 * Erasing a submitter (GDPR), for the dashboard's "Erase a sender" page: every submission of
 * the account from `email`, on every form and spam too, goes with its files and delivery logs
 * (eraseSender says what is kept). The address is the submitters' personal data: the log
 * line and the audit summary keep the count only.
 */
export async function eraseSenderSubmissions(
  em: EntityManager,
  deps: { logger: Pick<Logger, 'info'> },
  input: { accountId: string; email: string },
): Promise<{ erased: number; audit: UseCaseAudit }> {
  const { accountId } = input;
  const erased = await eraseSender(em, accountId, input.email);
  deps.logger.info({ accountId, erased }, 'sender erasure');
  const summary = `erased ${erased} submission${erased === 1 ? '' : 's'} of one sender`;
  return { erased, audit: { summary } };
}
