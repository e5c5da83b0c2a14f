import type { EntityManager } from '@mikro-orm/postgresql';
import { optOutOfInvitations } from '../../db/sql/invitation-mails';
import type { AddressKeys } from '../mail/address-keys';
import type { RecipientOfAccount, UnsubscribeTokens } from '../recipients/unsubscribe-tokens';

/**
 * The one-click unsubscribe of invitation mail (docs/teams.md, "Invitations"): the same sealed
 * token as recipient mail's (account, address), under a key of its own, so neither link opens
 * the other's list. Following it, the address takes no invitation again from any account.
 */
export const INVITATION_UNSUBSCRIBE_PURPOSE = 'invitation unsubscribe links v1';

/** Where an invitation's one-click unsubscribe goes (GET shows a button, POST opts out). */
export function invitationUnsubscribeUrl(
  deps: { tokens: UnsubscribeTokens; baseUrl: string },
  accountId: string,
  address: string,
): string {
  const token = deps.tokens.issue({ accountId, address });
  return `${deps.baseUrl}/invitations/unsubscribe?token=${token}`;
}

/** The address and inviting account of a link's token, or null for one not made here. */
export function invitationUnsubscribeTarget(
  tokens: UnsubscribeTokens,
  token: string,
): RecipientOfAccount | null {
  return token.length > 0 && token.length <= 2000 ? tokens.open(token) : null;
}

/** Records the opt-out, kept as the address's key only. Idempotent. */
export async function refuseInvitations(
  em: EntityManager,
  keys: AddressKeys,
  address: string,
): Promise<void> {
  await optOutOfInvitations(em, keys.address(address));
}
