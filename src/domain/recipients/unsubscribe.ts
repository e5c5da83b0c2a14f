import type { EntityManager } from '@mikro-orm/postgresql';
import { upsertUnsubscribed } from '../../db/sql/recipients';
import type { RecipientOfAccount, UnsubscribeTokens } from './unsubscribe-tokens';

/** The recipient of a one-click unsubscribe link, or null for a link this service did not make. */
export function unsubscribeTarget(
  tokens: UnsubscribeTokens,
  token: string,
): RecipientOfAccount | null {
  return token.length > 0 && token.length <= 2000 ? tokens.open(token) : null;
}

/**
 * RFC 8058 one-click unsubscribe: the address takes no more mail of that account (its own
 * users' addresses included) until it confirms again through a new request. Idempotent.
 */
export async function unsubscribeRecipient(
  em: EntityManager,
  recipient: RecipientOfAccount,
): Promise<void> {
  await upsertUnsubscribed(em, recipient.accountId, recipient.address);
}
