// Which Temporal server the e2e part runs on: the dev server `formward start` embeds (SQLite),
// or the production setting, the Temporal server 1.32.2 on PostgreSQL
// (test/support/temporal-postgres.ts, as the production test suite runs it). BENCH_TEMPORAL=
// dev | postgres | both; unset: dev, plus postgres when its binaries are already built (a
// default run never waits for the few minutes' Go build of scripts/temporal-server.sh).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATEMENT_STATS_SETTINGS } from './db-statements';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded/postgres';
import {
  findTemporalServer,
  startTemporalOnPostgres,
  type TemporalOnPostgres,
} from '../test/support/temporal-postgres';

export type TemporalServerKind = 'dev' | 'postgres';

export const SERVER_LABELS: Record<TemporalServerKind, string> = {
  dev: 'Temporal CLI dev server (SQLite, embedded by formward start)',
  postgres: 'Temporal server 1.32.2 on PostgreSQL (shared with Formward, as docker-compose.yml)',
};

/** The Temporal server version scripts/temporal-server.sh provides (docker-compose.yml's). */
const SERVER_VERSION = '1.32.2';

/** Where scripts/temporal-server.sh would find a finished build, without building one. */
function builtServerDir(): string | null {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const candidates = [
    process.env.TEMPORAL_SERVER_DIR,
    path.join(cache, 'formward', `temporal-server-${SERVER_VERSION}`),
  ];
  const complete = (dir: string) =>
    ['temporal-server', 'temporal-sql-tool', 'schema/postgresql/v12/temporal/schema.sql'].every(
      (file) => fs.existsSync(path.join(dir, file)),
    );
  return candidates.find((dir): dir is string => !!dir && complete(dir)) ?? null;
}

/** The servers to run, in order, from BENCH_TEMPORAL. */
export function temporalServersToRun(
  setting = process.env.BENCH_TEMPORAL || '',
): TemporalServerKind[] {
  if (setting === 'dev' || setting === 'postgres') return [setting];
  if (setting === 'both') return ['dev', 'postgres'];
  if (setting !== '') throw new Error(`BENCH_TEMPORAL=${setting}: expected dev, postgres or both`);
  return builtServerDir() ? ['dev', 'postgres'] : ['dev'];
}

/** What `formward start` is pointed at instead of its embedded services, and how to stop it. */
export type ExternalServices = {
  /** DATABASE_URL and TEMPORAL_ADDRESS for `formward start`. */
  env: Record<string, string>;
  /** Root pids of the processes, by label, for the CPU figures. */
  pids: Record<string, number>;
  stop(): Promise<void>;
};

/**
 * One PostgreSQL (the embedded one `formward start` would run, same binaries) holding
 * Formward's database and Temporal's two, as docker-compose.yml's single postgres service
 * does, and the Temporal server on it. Its log goes to `logFile`.
 */
export async function startTemporalOnPostgresStack(options: {
  logFile: string;
  say: (line: string) => void;
}): Promise<ExternalServices> {
  const serverDir = builtServerDir() ?? (await findTemporalServer());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-bench-temporal-pg-'));
  fs.chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as `postgres`, which must enter it
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.createWriteStream(options.logFile);
  const write = (line: string) => log.write(`${line}\n`);
  let postgres: EmbeddedPostgres | null = null;
  let temporal: TemporalOnPostgres | null = null;
  const removeData = () => {
    if (!process.env.BENCH_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // An interrupted bench exits without stop(): both servers are killed on exit, and this goes.
  process.once('exit', removeData);
  const stop = async () => {
    await temporal?.stop();
    await postgres?.stop();
    temporal = postgres = null;
    log.end();
    removeData();
    process.removeListener('exit', removeData);
  };
  try {
    options.say(`starting PostgreSQL and the Temporal server ${SERVER_VERSION} on it (${dataDir})`);
    postgres = await startEmbeddedPostgres({
      dataDir,
      log: write,
      // docker-compose.yml's connection budget (docs/running.md, "Connections to PostgreSQL").
      settings: [...STATEMENT_STATS_SETTINGS, ['max_connections', '300']],
    });
    temporal = await startTemporalOnPostgres({
      serverDir,
      databaseUrl: postgres.url.replace(/\/formward$/, '/postgres'),
      log: write,
    });
    const postmaster = Number(
      fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    options.say(`Temporal on PostgreSQL ready at ${temporal.address} (pid ${temporal.pid})`);
    return {
      env: { DATABASE_URL: postgres.url, TEMPORAL_ADDRESS: temporal.address },
      pids: { postgres: postmaster, 'temporal-server': temporal.pid },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
