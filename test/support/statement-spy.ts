import { vi } from 'vitest';
import type { Orm } from '../../src/db/orm';

/** A statement as the database client sends it: its SQL and its bound values. */
export type SentStatement = { sql: string; bindings: unknown[] };

type QueryFn = (connection: unknown, statement: SentStatement) => Promise<unknown>;

/**
 * Wraps every statement `orm` sends (inlined or bound, in a transaction or not) at the last
 * step before PostgreSQL: `around` gets the statement and a function that sends it, and may
 * hold it back, count it, or throw after it ran (a commit whose answer was lost).
 * vi.restoreAllMocks() undoes it.
 */
export function aroundStatements(
  orm: Orm,
  around: (statement: SentStatement, send: () => Promise<unknown>) => Promise<unknown>,
): void {
  const client = orm.em.getConnection().getKnex().client as { _query: QueryFn };
  const send = client._query.bind(client);
  vi.spyOn(client, '_query').mockImplementation((connection, statement) =>
    around(statement, () => send(connection, statement)),
  );
}
