import type { EntityManager } from '@mikro-orm/postgresql';
import { formatBytes } from '../../config/byte-size';
import {
  releaseUsage,
  reserveAccountUsage,
  reserveUsage,
  settleUsage,
} from '../../db/sql/file-usage';

/**
 * Bytes of uploaded files a form and an account may keep; 0: no limit. The account's quota
 * holds per owning user, summed over the accounts they own.
 */
export type FileQuota = { perFormBytes: number; perAccountBytes: number };

/** The upload would take a form or an account past its storage quota. */
export class FileQuotaExceededError extends Error {
  constructor(
    readonly scope: 'form' | 'account',
    readonly limitBytes: number,
  ) {
    super(
      scope === 'form'
        ? `the files of this submission would take the form past its storage quota for uploaded files (${formatBytes(limitBytes)})`
        : `the files of this submission would take the accounts of this account’s owner past their storage quota for uploaded files (${formatBytes(limitBytes)} per owner, FILE_QUOTA_PER_ACCOUNT)`,
    );
  }
}

/** Bytes reserved for one upload on its form's and its account's counters. */
export type FileReservation = { accountId: string; formId: string; bytes: number };

/**
 * Reserves `bytes` against both quotas before any file is written (else
 * FileQuotaExceededError, nothing reserved). Each counter takes one atomic conditional
 * statement (the account's under its owner's lock, in a short transaction), so no lock or
 * pooled connection is held while the files are written, and concurrent uploads never pass
 * a quota together. The reservation
 * ends in `settleFileReservation` (stored) or `releaseFileReservation` (not stored).
 */
export async function reserveFileBytes(
  em: EntityManager,
  quota: FileQuota,
  owner: { accountId: string; formId: string },
  bytes: number,
): Promise<FileReservation> {
  if (!(await reserveUsage(em, 'form', owner.formId, bytes, quota.perFormBytes)))
    throw new FileQuotaExceededError('form', quota.perFormBytes);
  if (!(await reserveAccountUsage(em, owner.accountId, bytes, quota.perAccountBytes))) {
    await releaseUsage(em, 'form', owner.formId, bytes);
    throw new FileQuotaExceededError('account', quota.perAccountBytes);
  }
  return { accountId: owner.accountId, formId: owner.formId, bytes };
}

/** Turns the reservation into kept bytes, in the transaction that inserts the file rows. */
export async function settleFileReservation(
  tx: EntityManager,
  reservation: FileReservation,
): Promise<void> {
  const change = { storedBytes: reservation.bytes, reservedBytes: reservation.bytes };
  // Form before account, the order of every statement on these rows: no deadlock.
  await settleUsage(tx, 'form', reservation.formId, change);
  await settleUsage(tx, 'account', reservation.accountId, change);
}

/** Gives the reserved bytes back (the upload failed, or its submission was already stored). */
export async function releaseFileReservation(
  em: EntityManager,
  reservation: FileReservation,
): Promise<void> {
  await releaseUsage(em, 'form', reservation.formId, reservation.bytes);
  await releaseUsage(em, 'account', reservation.accountId, reservation.bytes);
}
