import type { EntityManager } from '@mikro-orm/postgresql';
import { formatBytes } from '../../config/byte-size';
import { lockAndSumAccountFiles } from '../../db/sql/submission-files';

/** Bytes of uploaded files a form and an account may keep; 0: no limit. */
export type FileQuota = { perFormBytes: number; perAccountBytes: number };

/** The upload would take a form or an account past its storage quota. */
export class FileQuotaExceededError extends Error {
  constructor(
    readonly scope: 'form' | 'account',
    readonly limitBytes: number,
  ) {
    super(
      `the files of this submission would take the ${scope} past its storage quota for uploaded files (${formatBytes(limitBytes)})`,
    );
  }
}

/**
 * Checks `incomingBytes` against the quotas before anything is stored; inside `tx`, whose
 * per-account lock holds until it commits the files, so the check and the insert agree.
 */
export async function checkFileQuota(
  tx: EntityManager,
  quota: FileQuota,
  owner: { accountId: string; formId: string },
  incomingBytes: number,
): Promise<void> {
  if (quota.perFormBytes <= 0 && quota.perAccountBytes <= 0) return;
  const used = await lockAndSumAccountFiles(tx, owner.accountId, owner.formId);
  if (quota.perFormBytes > 0 && used.formBytes + incomingBytes > quota.perFormBytes)
    throw new FileQuotaExceededError('form', quota.perFormBytes);
  if (quota.perAccountBytes > 0 && used.accountBytes + incomingBytes > quota.perAccountBytes)
    throw new FileQuotaExceededError('account', quota.perAccountBytes);
}
