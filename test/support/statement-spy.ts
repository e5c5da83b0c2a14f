import type { Client } from 'pg';
import { vi } from 'vitest';
import type { Orm } from '../../src/db/orm';

/** A statement as the database client sends it: its SQL and its bound values. */
export type SentStatement = { sql: string; bindings: unknown[] };

type Query = (this: Client, ...args: unknown[]) => unknown;
/** What the spy reads of pg-pool's pool (no public accessors for these). */
type PoolInside = { Client: { prototype: { query: Query } }; _clients: Client[] };

/**
 * Wraps every statement `orm` sends (inlined or bound, in a transaction or not) at the last
 * step before PostgreSQL, the `pg` client's `query` on a connection of `orm`'s pool: `around`
 * gets the statement and a function that sends it, and may hold it back, count it, or throw
 * after it ran (a commit whose answer was lost). vi.restoreAllMocks() undoes it.
 */
export async function aroundStatements(
  orm: Orm,
  around: (statement: SentStatement, send: () => Promise<unknown>) => Promise<unknown>,
): Promise<void> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as PoolInside;
  const prototype = pool.Client.prototype;
  const query = prototype.query;
  vi.spyOn(prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const [sql, bindings] = args;
    if (typeof sql !== 'string' || !pool._clients.includes(this)) return query.apply(this, args);
    const send = () => query.apply(this, args) as Promise<unknown>;
    return around({ sql, bindings: (bindings as unknown[] | undefined) ?? [] }, send);
  });
}
