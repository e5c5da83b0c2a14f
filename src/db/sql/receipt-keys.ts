import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** A receipt key as stored (migration ReceiptKeys). */
export type ReceiptKeyRow = {
  kid: string;
  publicJwk: Record<string, unknown>;
  /** Sealed PKCS #8 PEM. */
  privateKeySealed: string;
  createdAt: Date;
  /** Whether it was made at least `publishedForMs` ago (the database's clock). */
  published: boolean;
};

/** A new key to store: its kid, public JWK and sealed private key. */
export type NewReceiptKey = { kid: string; publicJwk: object; privateKeySealed: string };

/**
 * Every receipt key, newest first, each marked `published` when it was made at least
 * `publishedForMs` ago: only such a key signs while there is one (so every cached key set
 * lists it before a receipt names it).
 */
export async function selectReceiptKeys(
  em: EntityManager,
  publishedForMs: number,
): Promise<ReceiptKeyRow[]> {
  const rows = await selectRows<{
    kid: string;
    public_jwk: Record<string, unknown>;
    private_key_sealed: string;
    created_at: Date;
    published: boolean;
  }>(
    em,
    `select kid, public_jwk, private_key_sealed, created_at,
            created_at <= now() - (?::integer * interval '1 millisecond') as published
       from receipt_keys
      order by created_at desc, kid`,
    [publishedForMs],
  );
  return rows.map((row) => ({
    kid: row.kid,
    publicJwk: row.public_jwk,
    privateKeySealed: row.private_key_sealed,
    createdAt: new Date(row.created_at),
    published: row.published,
  }));
}

/**
 * Stores `key` as the instance's first receipt key unless one is there; several processes
 * asking at once store one key (they wait on one advisory lock). Run it in a transaction.
 */
export async function insertFirstReceiptKey(tx: EntityManager, key: NewReceiptKey): Promise<void> {
  await selectRows(tx, "select pg_advisory_xact_lock(hashtext('formward.receipt_keys'))");
  await runStatement(
    tx,
    `insert into receipt_keys (kid, public_jwk, private_key_sealed)
     select ?, ?::jsonb, ? where not exists (select 1 from receipt_keys)`,
    [key.kid, JSON.stringify(key.publicJwk), key.privateKeySealed],
  );
}

/** Adds a key (a rotation); it signs once it has been published long enough. */
export async function insertReceiptKey(em: EntityManager, key: NewReceiptKey): Promise<Date> {
  const [row] = await selectRows<{ created_at: Date }>(
    em,
    `insert into receipt_keys (kid, public_jwk, private_key_sealed) values (?, ?::jsonb, ?)
     returning created_at`,
    [key.kid, JSON.stringify(key.publicJwk), key.privateKeySealed],
  );
  return new Date(row!.created_at);
}
