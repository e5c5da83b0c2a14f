import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * A manage link's secret (docs/manage-links.md): 32 random bytes, base64url, given to the
 * submitter once and stored only as its SHA-256 (`submissions.manage_key_hash`), so the
 * database alone opens no link.
 */

/** 32 bytes as base64url without padding: 43 characters. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const SUBMISSION_ID = /^[1-9]\d{0,17}$/;

export type ManageSecret = { secret: string; hash: string };

/** The stored form of a secret: its SHA-256, base64url. */
export const manageKeyHash = (secret: string): string =>
  createHash('sha256').update(secret).digest('base64url');

/** A new secret and the hash to store. */
export function newManageSecret(): ManageSecret {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: manageKeyHash(secret) };
}

/**
 * Whether `secret` opens the link whose stored hash is `storedHash`: the hashes compared in
 * constant time (both are 32 bytes whatever was sent). False for a submission without one.
 */
export function secretMatches(storedHash: string | null, secret: string): boolean {
  const stored = storedHash === null ? null : Buffer.from(storedHash, 'base64url');
  const sent = createHash('sha256').update(secret).digest();
  // Without a stored hash the comparison still runs, against itself, and is then refused.
  const equal = timingSafeEqual(stored?.length === sent.length ? stored : sent, sent);
  return stored !== null && stored.length === sent.length && equal;
}

/** A link's two parts when they have the shapes we hand out; null otherwise (a 404). */
export function parseManageLink(
  submissionId: string,
  secret: string,
): { submissionId: string; secret: string } | null {
  return SUBMISSION_ID.test(submissionId) && SECRET.test(secret) ? { submissionId, secret } : null;
}

/** The link itself: `{ingest_url}/s/{submission_id}/{secret}`. */
export const manageUrl = (ingestUrl: string, submissionId: string, secret: string): string =>
  `${ingestUrl}/s/${submissionId}/${secret}`;

/**
 * How the thank-you page carries the link after the post's redirect (`?manage=`): the id and
 * the secret, joined by a dot; null when `value` is not one.
 */
export function parseManageToken(value: string): { submissionId: string; secret: string } | null {
  const [submissionId, secret, ...rest] = value.split('.');
  if (rest.length > 0 || submissionId === undefined || secret === undefined) return null;
  return parseManageLink(submissionId, secret);
}

export const manageToken = (submissionId: string, secret: string) => `${submissionId}.${secret}`;
