import type { EntityManager } from '@mikro-orm/postgresql';
import { setMailKeyHash } from '../../db/sql/managed-submissions';
import { manageUrl, newManageSecret } from './manage-secret';
import type { SubmitterAccess } from './submitter-access';

/**
 * The manage link an autoresponse carries (docs/manage-links.md). The link answered at ingest
 * is known to that answer only (its secret is kept as a hash), so the mail gets a secret of
 * its own, made now and stored the same way, before the mail goes. A retried attempt makes
 * another, which replaces it: the link of the mail that was sent last opens the submission.
 * Null when the form gives no access.
 */
export async function mailManageLink(
  em: EntityManager,
  ingestUrl: string,
  submission: { id: string; submitterAccess: SubmitterAccess },
): Promise<string | null> {
  if (submission.submitterAccess === 'none') return null;
  const { secret, hash } = newManageSecret();
  await setMailKeyHash(em, submission.id, hash);
  return manageUrl(ingestUrl, submission.id, secret);
}
