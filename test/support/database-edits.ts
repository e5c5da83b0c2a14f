import { createHash } from 'node:crypto';
import type { TestStack } from './test-stack';

// Changes made straight in a stack's database, for states the API cannot produce.

/**
 * Moves a submission back in time (for range and stats tests). It is also marked as having
 * its workflow started, so no worker starts a workflow for it.
 */
export async function backdate(stack: TestStack, submissionId: string, interval: string) {
  await stack.sql(
    `with started as (delete from pending_workflow_starts where submission_id = ?)
     update submissions
        set created_at = now() - ?::interval, updated_at = now() - ?::interval
      where id = ?`,
    [submissionId, interval, interval, submissionId],
  );
}

/** Keys and session tokens are stored as their SHA-256 only. */
const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Revokes a key the way the dashboard would. */
export async function revokeKey(stack: TestStack, key: string): Promise<void> {
  await stack.sql('update api_keys set revoked_at = now() where key_hash = ?', [sha256(key)]);
}

/** Lets a session expire: `cookie` is the pair `formward_session=...` signIn returns. */
export async function expireSession(stack: TestStack, cookie: string): Promise<void> {
  const token = cookie.slice('formward_session='.length);
  await stack.sql(
    `update sessions set expires_at = now() - interval '1 minute' where token_hash = ?`,
    [sha256(token)],
  );
}
