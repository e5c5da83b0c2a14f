import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/**
 * The ledger of invitation mails and the addresses that asked for none (docs/teams.md,
 * "Invitations"). Both hold keyed hashes of addresses (src/domain/mail/address-keys.ts) and
 * no foreign key: revoking, re-inviting or deleting the account leaves them, so the caps
 * count every invitation mailed.
 */

/** INVITATIONS_PER_HOUR and INVITATIONS_PER_ADDRESS_PER_DAY; 0 turns one off. */
export type InvitationCaps = { perAccountHour: number; perAddressDay: number };

export type InvitationMailClaim = 'claimed' | 'opted_out' | 'account_hour' | 'address_day';

/**
 * Records one invitation mail from the account to the address, when the address did not opt
 * out and both caps have room. Counted and recorded under transaction-scoped advisory locks on
 * the account and then the address, so invitations at once (one account, or many accounts to
 * one address) are decided one after the other: none passes a count another is about to
 * raise. Run it in the transaction that stores the invitation: a rollback takes it back.
 */
export async function claimInvitationMail(
  tx: EntityManager,
  mail: { accountId: string; addressKey: string },
  caps: InvitationCaps,
): Promise<InvitationMailClaim> {
  await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [
    LOCK_ACCOUNT,
    mail.accountId,
  ]);
  await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [
    LOCK_ADDRESS,
    mail.addressKey,
  ]);
  const [counts] = await selectRows<{
    opted_out: boolean;
    from_account: number;
    to_address: number;
  }>(
    tx,
    `select
       exists (select 1 from invitation_opt_outs where address_key = ?) as opted_out,
       (select count(*)::int from invitation_mails
         where account_id = ? and sent_at > now() - interval '1 hour') as from_account,
       (select count(*)::int from invitation_mails
         where address_key = ? and sent_at > now() - interval '1 day') as to_address`,
    [mail.addressKey, mail.accountId, mail.addressKey],
  );
  if (counts!.opted_out) return 'opted_out';
  if (caps.perAccountHour > 0 && counts!.from_account >= caps.perAccountHour) return 'account_hour';
  if (caps.perAddressDay > 0 && counts!.to_address >= caps.perAddressDay) return 'address_day';
  await runStatement(tx, 'insert into invitation_mails (address_key, account_id) values (?, ?)', [
    mail.addressKey,
    mail.accountId,
  ]);
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

// Advisory lock classes (the first key), apart from the autoresponse caps' ones.
const LOCK_ACCOUNT = 0x6961; // "ia"
const LOCK_ADDRESS = 0x6964; // "id"
