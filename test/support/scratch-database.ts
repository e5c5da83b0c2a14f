import { afterAll, beforeAll } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createOrm, migrate, type Orm } from '../../src/db/orm';
import {
  insertSubmissionOnce,
  nextSubmissionId,
  type NewSubmissionRow,
} from '../../src/db/sql/submission-inserts';
import { createTestDatabase } from './test-stack';

/**
 * A suite's own database on the shared PostgreSQL, without a server: migrated fully, or up
 * to the migration `migrateTo` (a migration test then runs the rest itself). Called inside a
 * describe block; `orm` is there once its beforeAll ran, and it closes after the block.
 */
export function useScratchDatabase(options: { migrateTo?: string; poolMax?: number } = {}) {
  const db = {
    orm: undefined as unknown as Orm,
    /** Runs a statement with `?` parameters and returns its rows. */
    sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
      return db.orm.em.getConnection().execute<T[]>(text, params);
    },
    /** A new account with one form of this endpoint token (16 characters). */
    async accountWithForm(endpointToken: string): Promise<{ accountId: string; formId: string }> {
      const [account] = await db.sql<{ id: string }>(
        `insert into accounts (name) values ('Scratch') returning id`,
      );
      const [form] = await db.sql<{ id: string }>(
        `insert into forms (account_id, name, endpoint_token) values (?, 'f', ?) returning id`,
        [account!.id, endpointToken],
      );
      return { accountId: String(account!.id), formId: String(form!.id) };
    },
  };
  beforeAll(async () => {
    db.orm = await createOrm(await createTestDatabase(), { poolMax: options.poolMax ?? 1 });
    if (options.migrateTo) await db.orm.migrator.up({ to: options.migrateTo });
    else await migrate(db.orm);
  });
  afterAll(() => db.orm?.close());
  return db;
}

/**
 * Stores a submission of `form` the way ingest does (its workflow start pending in the same
 * statement, held from the workers for `startHeldMs`); returns its id.
 */
export async function storeBareSubmission(
  em: EntityManager,
  form: { accountId: string; formId: string },
  payload: Record<string, unknown> = {},
  startHeldMs = 0,
): Promise<string> {
  const id = await nextSubmissionId(em);
  await insertSubmissionOnce(em, bareSubmissionRow(id, form, payload, startHeldMs));
  return id;
}

/** A submission row of `form` with only a payload (and its e-mail as the special field). */
export function bareSubmissionRow(
  id: string,
  form: { accountId: string; formId: string },
  payload: Record<string, unknown> = {},
  startHeldMs = 0,
): NewSubmissionRow {
  return {
    id,
    ...form,
    payloadJson: payload,
    specialNormalized: typeof payload.email === 'string' ? { email: payload.email } : null,
    sourceIp: null,
    userAgent: null,
    referrer: null,
    isSpam: false,
    spamReason: null,
    fillMs: null,
    startHeldMs,
  };
}
