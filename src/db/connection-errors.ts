import { ConnectionException } from '@mikro-orm/core';

/** Socket errors of a database that is restarting or unreachable. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);

/** node-postgres' messages for a connection that went away under it (they carry no code). */
const LOST_CONNECTION =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect/i;

/**
 * Whether `error` means the database could not be reached or dropped the connection (a
 * restart, a failover), as opposed to refusing the statement: SQLSTATE class 08, the
 * shutdown states 57P01-57P03, or a socket error, also when MikroORM or kysely wrap it.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof ConnectionException) return true;
    const { code, syscall, message, cause, previous } = e as {
      code?: unknown;
      syscall?: unknown;
      message?: unknown;
      cause?: unknown;
      previous?: unknown;
    };
    if (typeof code === 'string') {
      if (code.startsWith('08') || SHUTDOWN_STATES.has(code) || SOCKET_CODES.has(code)) return true;
      // A Unix socket whose server is down: its file is gone (the embedded PostgreSQL).
      if (code === 'ENOENT' && syscall === 'connect') return true;
    }
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
    e = previous ?? cause;
  }
  return false;
}

/**
 * How long ingest waits for a database that went away (a restart, a failover) before it
 * answers 503 (docs/api-conventions.md, Errors): an accepted post is worth a short wait, and
 * a browser's submitter gets no second chance.
 */
export const CONNECTION_RETRY_BUDGET_MS = 5_000;

/** Runs `attempt` again after connection errors, backing off 100 ms, 200 ms, … 1 s, within the budget. */
export async function retryOnConnectionError<T>(
  attempt: () => Promise<T>,
  budgetMs = CONNECTION_RETRY_BUDGET_MS,
): Promise<T> {
  const giveUpAt = Date.now() + budgetMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() + wait > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
