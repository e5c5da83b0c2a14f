import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type InvitationRow = {
  id: string;
  accountId: string;
  accountName: string;
  email: string;
  role: 'admin' | 'viewer';
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

/** Raw statements give timestamps as strings. */
const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));
function withDates(row: InvitationRow): InvitationRow {
  return {
    ...row,
    expiresAt: asDate(row.expiresAt)!,
    acceptedAt: asDate(row.acceptedAt),
    revokedAt: asDate(row.revokedAt),
    createdAt: asDate(row.createdAt)!,
  };
}

const COLUMNS = `i.id::text as id, i.account_id::text as "accountId", a.name as "accountName",
  i.email, i.role, i.expires_at as "expiresAt", i.accepted_at as "acceptedAt",
  i.revoked_at as "revokedAt", i.created_at as "createdAt"`;

/** Revokes the address's pending invitation to the account (a new one replaces it). */
export function revokePendingFor(em: EntityManager, accountId: string, email: string) {
  return runStatement(
    em,
    `update invitations set revoked_at = now()
      where account_id = ? and email = ? and accepted_at is null and revoked_at is null`,
    [accountId, email],
  );
}

export async function insertInvitation(
  em: EntityManager,
  input: {
    accountId: string;
    email: string;
    role: string;
    tokenHash: string;
    invitedByUserId: string;
    expiresAt: Date;
  },
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    em,
    `insert into invitations (account_id, email, role, token_hash, invited_by_user_id, expires_at)
     values (?, ?, ?, ?, ?, ?) returning id::text as id`,
    [
      input.accountId,
      input.email,
      input.role,
      input.tokenHash,
      input.invitedByUserId,
      input.expiresAt,
    ],
  );
  return row!.id;
}

/** The account's invitations not accepted, revoked or expired, newest first. */
export async function listPendingInvitations(
  em: EntityManager,
  accountId: string,
): Promise<InvitationRow[]> {
  const rows = await selectRows<InvitationRow>(
    em,
    `select ${COLUMNS} from invitations i join accounts a on a.id = i.account_id
      where i.account_id = ? and i.accepted_at is null and i.revoked_at is null
        and i.expires_at > now()
      order by i.created_at desc`,
    [accountId],
  );
  return rows.map(withDates);
}

export function revokeInvitation(em: EntityManager, accountId: string, id: string) {
  return runStatement(
    em,
    `update invitations set revoked_at = now()
      where account_id = ? and id = ? and accepted_at is null and revoked_at is null`,
    [accountId, id],
  );
}

/** The invitation of a link's token hash; `lock` holds its row until the transaction ends. */
export async function findInvitationByHash(
  em: EntityManager,
  tokenHash: string,
  lock = false,
): Promise<InvitationRow | null> {
  const [row] = await selectRows<InvitationRow>(
    em,
    `select ${COLUMNS} from invitations i join accounts a on a.id = i.account_id
      where i.token_hash = ?${lock ? ' for update of i' : ''}`,
    [tokenHash],
  );
  return row ? withDates(row) : null;
}

/** Marks it accepted, once: false when another acceptance came first. */
export async function markAccepted(em: EntityManager, id: string): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update invitations set accepted_at = now()
      where id = ? and accepted_at is null and revoked_at is null and expires_at > now()`,
    [id],
  );
  return changed === 1;
}

/**
 * Accepts every pending invitation to the address at once (a provider verified it) and
 * makes the memberships, keeping a membership the user has already; the accounts joined,
 * newest invitation first.
 */
export async function acceptPendingInvitationsFor(
  em: EntityManager,
  user: { id: string; email: string },
): Promise<string[]> {
  const rows = await selectRows<{ account_id: string }>(
    em,
    `with accepted as (
       update invitations set accepted_at = now()
        where email = lower(?) and accepted_at is null and revoked_at is null
          and expires_at > now()
       returning account_id, role, created_at
     ), joined as (
       insert into memberships (account_id, user_id, role)
       select account_id, ?, role from accepted
       on conflict (account_id, user_id) do nothing
     )
     select account_id::text as account_id from accepted order by created_at desc`,
    [user.email, user.id],
  );
  return rows.map((row) => row.account_id);
}
