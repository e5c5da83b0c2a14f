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
  declinedAt: Date | null;
  createdAt: Date;
  /** The address of who sent it; null once that user is deleted. */
  inviterEmail: string | null;
};

/** Raw statements give timestamps as strings. */
const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));
function withDates(row: InvitationRow): InvitationRow {
  return {
    ...row,
    expiresAt: asDate(row.expiresAt)!,
    acceptedAt: asDate(row.acceptedAt),
    revokedAt: asDate(row.revokedAt),
    declinedAt: asDate(row.declinedAt),
    createdAt: asDate(row.createdAt)!,
  };
}

const COLUMNS = `i.id::text as id, i.account_id::text as "accountId", a.name as "accountName",
  i.email, i.role, i.expires_at as "expiresAt", i.accepted_at as "acceptedAt",
  i.revoked_at as "revokedAt", i.declined_at as "declinedAt", i.created_at as "createdAt",
  inviter.email as "inviterEmail"`;
const FROM = `invitations i join accounts a on a.id = i.account_id
  left join users inviter on inviter.id = i.invited_by_user_id`;
/** Neither accepted, revoked, declined nor expired. */
const OPEN = `i.accepted_at is null and i.revoked_at is null and i.declined_at is null
  and i.expires_at > now()`;

/** Revokes the address's pending invitation to the account (a new one replaces it). */
export function revokePendingFor(em: EntityManager, accountId: string, email: string) {
  return runStatement(
    em,
    `update invitations set revoked_at = now()
      where account_id = ? and email = ? and accepted_at is null and revoked_at is null
        and declined_at is null`,
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

/**
 * The account's invitations still open, and those declined and not yet purged (the team
 * page shows both), newest first.
 */
export async function listPendingInvitations(
  em: EntityManager,
  accountId: string,
): Promise<InvitationRow[]> {
  const rows = await selectRows<InvitationRow>(
    em,
    `select ${COLUMNS} from ${FROM}
      where i.account_id = ? and ((${OPEN}) or i.declined_at is not null)
      order by i.created_at desc`,
    [accountId],
  );
  return rows.map(withDates);
}

/** The open invitations to an address (any case), from every account, newest first. */
export async function listOpenInvitationsTo(
  em: EntityManager,
  email: string,
): Promise<InvitationRow[]> {
  const rows = await selectRows<InvitationRow>(
    em,
    `select ${COLUMNS} from ${FROM} where i.email = lower(?) and ${OPEN}
      order by i.created_at desc`,
    [email],
  );
  return rows.map(withDates);
}

export function revokeInvitation(em: EntityManager, accountId: string, id: string) {
  return runStatement(
    em,
    `update invitations set revoked_at = now()
      where account_id = ? and id = ? and accepted_at is null and revoked_at is null
        and declined_at is null`,
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
    `select ${COLUMNS} from ${FROM} where i.token_hash = ?${lock ? ' for update of i' : ''}`,
    [tokenHash],
  );
  return row ? withDates(row) : null;
}

/** The invitation with this id; `lock` holds its row until the transaction ends. */
export async function findInvitationById(
  em: EntityManager,
  id: string,
  lock = false,
): Promise<InvitationRow | null> {
  const [row] = await selectRows<InvitationRow>(
    em,
    `select ${COLUMNS} from ${FROM} where i.id = ?${lock ? ' for update of i' : ''}`,
    [id],
  );
  return row ? withDates(row) : null;
}

/** Marks it accepted, once: false when another acceptance came first. */
export async function markAccepted(em: EntityManager, id: string): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update invitations set accepted_at = now()
      where id = ? and accepted_at is null and revoked_at is null and declined_at is null
        and expires_at > now()`,
    [id],
  );
  return changed === 1;
}

/** Marks it declined, once: false when it was no longer open. */
export async function markDeclined(em: EntityManager, id: string): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update invitations set declined_at = now()
      where id = ? and accepted_at is null and revoked_at is null and declined_at is null
        and expires_at > now()`,
    [id],
  );
  return changed === 1;
}
