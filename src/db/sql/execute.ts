import { CompiledQuery, type Transaction } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The one place raw statements reach PostgreSQL. A statement runs on the entity manager's
 * connection, inside its transaction when it is a transactional one (the `tx` of
 * `em.transactional`), like the entity manager's own queries. Pass forks, not the global
 * `orm.em`: a fork's transaction is its own, never one borrowed from the async context.
 */
export function selectRows<Row>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  return em.getConnection().execute<Row[]>(sql, [...params], 'all', em.getTransactionContext());
}

/**
 * Like selectRows, with the parameters bound (sent apart from the statement) instead of
 * written into it: for a large value, such as ingest's group of rows, that saves escaping it
 * character by character and PostgreSQL parsing it as a literal.
 */
export async function selectRowsBound<Row>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<Row[]> {
  let position = 0;
  const query = CompiledQuery.raw(
    sql.replace(/\?/g, () => `$${(position += 1)}`),
    [...params],
  );
  const transaction = em.getTransactionContext<Transaction<unknown>>();
  const executor = transaction ?? em.getConnection().getClient();
  const result = await executor.executeQuery<Row>(query);
  return result.rows;
}

/** Runs a statement that returns no rows; resolves to the number of rows it changed. */
export async function runStatement(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(sql, [...params], 'run', em.getTransactionContext());
  return result.affectedRows;
}

/**
 * A PostgreSQL array literal ('{1,2,3}') of numeric ids, to bind as one `?::bigint[]`
 * parameter: MikroORM's query formatting would expand a JS array into a list of values.
 */
export function bigintArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}

/**
 * Raw statements reach the caller as node-postgres errors; ingest's refusals (a payload too
 * large to index) and its log (no statement values) expect MikroORM's DriverException, as
 * its own inserts throw.
 */
export function asDriverError(em: EntityManager) {
  return (error: unknown): never => {
    throw em.getDriver().convertException(error as Error);
  };
}
