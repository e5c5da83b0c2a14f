import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAccountOwner } from './account-owners';
import { runStatement, selectRows } from './execute';

/**
 * The ledger of invitation mails and the addresses that asked for none (docs/teams.md,
 * "Invitations"). Both hold keyed hashes of addresses (src/domain/mail/address-keys.ts) and
 * no foreign key: revoking, re-inviting or deleting the account leaves them, so the caps
 * count every invitation mailed.
 */

/** INVITATIONS_PER_HOUR and INVITATIONS_PER_ADDRESS_PER_DAY; 0 turns one off. */
export type InvitationCaps = { perOwnerHour: number; perAddressDay: number };

export type InvitationMailClaim = 'claimed' | 'opted_out' | 'owner_hour' | 'address_day';

/**
 * Records one invitation mail from the account to the address, when the address did not opt
 * out and both caps have room: the invitations of the account's owning user an hour (summed
 * over the accounts they own, decisions.md §20) and those to the address a day. Counted and
 * recorded under transaction-scoped advisory locks on the owner (account-owners.ts) and then
 * the address, so invitations at once (one owner, or many accounts to one address) are
 * decided one after the other: none passes a count another is about to raise. Run it in the
 * transaction that stores the invitation: a rollback takes it back.
 */
export async function claimInvitationMail(
  tx: EntityManager,
  mail: { accountId: string; addressKey: string },
  caps: InvitationCaps,
): Promise<InvitationMailClaim> {
  const owner = await lockAccountOwner(tx, mail.accountId);
  await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [
    LOCK_ADDRESS,
    mail.addressKey,
  ]);
  const [counts] = await selectRows<{
    opted_out: boolean;
    from_owner: number;
    to_address: number;
  }>(
    tx,
    `select
       exists (select 1 from invitation_opt_outs where address_key = ?) as opted_out,
       (select count(*)::int from invitation_mails
         where (owner_user_id = ?::bigint or account_id = ?)
           and sent_at > now() - interval '1 hour') as from_owner,
       (select count(*)::int from invitation_mails
         where address_key = ? and sent_at > now() - interval '1 day') as to_address`,
    [mail.addressKey, owner, mail.accountId, mail.addressKey],
  );
  if (counts!.opted_out) return 'opted_out';
  if (caps.perOwnerHour > 0 && counts!.from_owner >= caps.perOwnerHour) return 'owner_hour';
  if (caps.perAddressDay > 0 && counts!.to_address >= caps.perAddressDay) return 'address_day';
  await runStatement(
    tx,
    'insert into invitation_mails (address_key, account_id, owner_user_id) values (?, ?, ?)',
    [mail.addressKey, mail.accountId, owner],
  );
  return 'claimed';
}

/** The address takes no invitation again, from any account (one-click unsubscribe). */
export async function optOutOfInvitations(em: EntityManager, addressKey: string): Promise<void> {
  await runStatement(
    em,
    'insert into invitation_opt_outs (address_key) values (?) on conflict do nothing',
    [addressKey],
  );
}

// The advisory lock class (the first key) of invited addresses, apart from the autoresponse
// caps' and the owners' ones.
const LOCK_ADDRESS = 0x6964; // "id"
