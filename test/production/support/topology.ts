import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitForPort } from '../../../src/embedded/free-port';
import {
  findTemporalServer,
  startTemporalOnPostgres,
  type TemporalOnPostgres,
} from '../../support/temporal-postgres';
import { compileService } from '../../support/worker-process';
import { startPostgresServer, type PostgresServer } from './postgres-server';

const run = promisify(execFile);

/** One `formward serve` or `formward worker` process that a fault can kill and restart. */
export type ServiceProcess = {
  name: string;
  /** The HTTP base URL (for `serve`; a worker's health port otherwise). */
  url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
};

export type Topology = {
  postgres: PostgresServer;
  temporal: TemporalOnPostgres;
  serves: ServiceProcess[];
  workers: ServiceProcess[];
  /** Runs a `formward` CLI command against the topology's database; returns its JSON answer. */
  cli(args: string[]): Promise<Record<string, string>>;
  stop(): Promise<void>;
};

/**
 * The production topology of docker-compose.yml, natively: PostgreSQL, the Temporal server
 * on it (config/temporal/postgresql.yaml), and `serve`/`worker` processes of the compiled
 * service sharing one database and task queue.
 */
export async function startTopology(options: {
  serves: number;
  workers: number;
  env: Record<string, string>;
  log?: (line: string) => void;
}): Promise<Topology> {
  const serverDir = await findTemporalServer();
  const build = compileService('production');
  const postgres = await startPostgresServer();
  const temporal = await startTemporalOnPostgres({
    serverDir,
    databaseUrl: postgres.url.replace(/\/formward$/, '/postgres'),
    log: options.log,
  });
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-production-'));
  const cliModule = JSON.stringify(path.join(build.dir, 'src/cli.js'));
  const baseEnv = {
    ...process.env,
    DATABASE_URL: postgres.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: 'formward',
    APP_SECRET: 'production-suite-app-secret-0123456789',
    HOST: '127.0.0.1',
    // Their errors during the faults are expected and many; PRODUCTION_LOG_LEVEL shows them.
    LOG_LEVEL: process.env.PRODUCTION_LOG_LEVEL ?? 'fatal',
    ...options.env,
  };
  const nodeArgs = (args: string[]) => [
    '-e',
    `require(${cliModule}).main(${JSON.stringify(args)})`,
  ];

  const cli = async (args: string[]) => {
    const { stdout } = await run(process.execPath, nodeArgs(args), {
      env: { ...baseEnv, DATA_DIR: dataRoot, PORT: '0' },
    });
    const last = stdout.trim().split('\n').pop() ?? '{}';
    return last.startsWith('{') ? (JSON.parse(last) as Record<string, string>) : {};
  };
  await cli(['migrate']);

  const processes: ServiceProcess[] = [];
  const launch = async (command: 'serve' | 'worker', index: number) => {
    const port = await freePort();
    const dataDir = path.join(dataRoot, `${command}-${index}`);
    fs.mkdirSync(dataDir, { recursive: true });
    let child: ChildProcess | undefined;
    let exited: Promise<void> = Promise.resolve();
    const service: ServiceProcess = {
      name: `${command}-${index}`,
      url: `http://127.0.0.1:${port}`,
      async start() {
        const current = spawn(process.execPath, nodeArgs([command]), {
          env: { ...baseEnv, DATA_DIR: dataDir, PORT: String(port), BASE_URL: service.url },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        child = current;
        exited = new Promise((resolve) => current.once('exit', () => resolve()));
        await waitForPort(port, '127.0.0.1', 60_000);
      },
      async kill() {
        child?.kill('SIGKILL');
        await exited;
      },
    };
    await service.start();
    processes.push(service);
    return service;
  };
  const serves: ServiceProcess[] = [];
  for (let i = 1; i <= options.serves; i++) serves.push(await launch('serve', i));
  const workers: ServiceProcess[] = [];
  for (let i = 1; i <= options.workers; i++) workers.push(await launch('worker', i));

  return {
    postgres,
    temporal,
    serves,
    workers,
    cli,
    async stop() {
      for (const service of processes) await service.kill();
      await temporal.stop();
      await postgres.stop();
      build.remove();
      fs.rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}
