import { Pool } from 'pg';
import { isProcessAlive } from '../src/embedded/runtime-file';
import { createApiKey } from './formward-api';
import { processesLeft } from './leftovers';
import { startFormward, type Formward, type Shutdown } from './stack';
import {
  startTemporalOnPostgresStack,
  type ExternalServices,
  type TemporalServerKind,
} from './temporal-servers';

/** A fresh, running stack with an admin API key and a small pool on its database. */
export type Session = { formward: Formward; db: Pool; key: string };

export type SessionEnd = { shutdown: Shutdown | null; leftovers: string[] };

let stopCurrent: (() => Promise<unknown>) | null = null;

/** Stops the stack of the session in progress, if any (for a signal handler). */
export const stopActiveSession = () => stopCurrent?.() ?? Promise.resolve();

/**
 * `formward start` on a fresh DATA_DIR (retried when its port was taken meanwhile), an
 * account and key, then `run`; whatever happens, the stack is stopped afterwards and what
 * is left of its processes is reported. With `temporal: 'postgres'` (and its `servicesLogFile`),
 * PostgreSQL and the Temporal server on it are started first and `formward start` uses them.
 */
export async function withSession<T>(
  options: Parameters<typeof startFormward>[0] & {
    say: (line: string) => void;
    temporal?: TemporalServerKind;
    servicesLogFile?: string;
  },
  run: (session: Session) => Promise<T>,
): Promise<{ value: T | null; error: unknown } & SessionEnd> {
  const { say } = options;
  let external: ExternalServices | null = null;
  let formward: Formward | null = null;
  let db: Pool | null = null;
  let started: { pid: number; dataDir: string } | null = null;
  let value: T | null = null;
  let error: unknown = null;
  let shutdown: Shutdown | null = null;
  const stop = async () => {
    await db?.end().catch(() => undefined);
    shutdown = (await formward?.stop()) ?? shutdown;
    db = formward = null;
    await external
      ?.stop()
      .catch((e: Error) => say(`stopping Temporal on PostgreSQL: ${e.message}`));
  };
  stopCurrent = stop;
  try {
    if (options.temporal === 'postgres') {
      const logFile = options.servicesLogFile ?? `${options.logFile}.temporal.log`;
      external = await startTemporalOnPostgresStack({ logFile, say });
      say('starting formward (worker + HTTP on that PostgreSQL and Temporal)');
    } else say('starting formward (embedded PostgreSQL + Temporal dev server + worker + HTTP)');
    const env = { ...options.env, ...external?.env };
    const neighbours = external?.pids;
    // The free port is picked before the child binds it, ~15 s later: retry if it was taken.
    for (let attempt = 1; !formward; attempt++) {
      try {
        formward = await startFormward({ ...options, env, neighbours });
      } catch (e) {
        if (attempt >= 3 || !String(e).includes('EADDRINUSE')) throw e;
        say('the HTTP port was taken meanwhile (EADDRINUSE); starting again');
      }
    }
    started = { pid: formward.pid, dataDir: formward.dataDir };
    say(`formward ready at ${formward.url} (pid ${started.pid}, DATA_DIR ${started.dataDir})`);
    const key = await createApiKey(formward);
    db = new Pool({ connectionString: formward.runtime.databaseUrl, max: 2 });
    value = await run({ formward, db, key });
  } catch (e) {
    error = e;
  }
  await stop();
  stopCurrent = null;
  const s = shutdown as Shutdown | null;
  if (s)
    say(
      `formward stopped in ${s.seconds} s (${s.graceful ? 'after SIGTERM' : 'SIGTERM was not enough: killed'})`,
    );
  const leftovers = started ? await processesLeft(started.pid, started.dataDir) : [];
  for (const [label, pid] of Object.entries(external?.pids ?? {}))
    if (isProcessAlive(pid)) leftovers.push(`${pid} ${label} (Temporal on PostgreSQL)`);
  return { value, error, shutdown: s, leftovers };
}
