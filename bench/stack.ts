import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporalCliCacheDir } from '../src/embedded/temporal-cli';
import { freePort, sleep, Tail } from './util';

const execFileAsync = promisify(execFile);

/** The repository root: the first folder above this file with a package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) throw new Error('cannot find the repository root');
    dir = path.dirname(dir);
  }
  return dir;
}

export type Shutdown = { graceful: boolean; seconds: number };

export type RuntimeInfo = {
  pid: number;
  databaseUrl: string;
  temporalAddress: string;
  baseUrl: string;
};

export type Formward = {
  url: string;
  pid: number;
  dataDir: string;
  logFile: string;
  runtime: RuntimeInfo;
  /** The environment the child was started with (for more processes on the same stack). */
  env: NodeJS.ProcessEnv;
  /** Root pids of the stack's processes started outside `formward start`, by label. */
  neighbours: Record<string, number>;
  /** Runs `formward ARGS` against the running instance and parses its JSON answer. */
  cli(args: string[]): Promise<Record<string, unknown>>;
  /** SIGTERM, wait for the exit (SIGKILL to the whole process group after a minute). */
  stop(): Promise<Shutdown>;
};

function temporalCli(): string | undefined {
  if (process.env.TEMPORAL_CLI) return process.env.TEMPORAL_CLI;
  const cached = path.join(temporalCliCacheDir(), 'temporal');
  return fs.existsSync(cached) ? cached : undefined;
}

/**
 * `node bin/formward.js start` on a fresh DATA_DIR and a free port: embedded PostgreSQL,
 * embedded Temporal dev server (unless `env` gives DATABASE_URL / TEMPORAL_ADDRESS), worker
 * and HTTP, in its own process group.
 */
export async function startFormward(options: {
  logFile: string;
  nodeFlags?: string[];
  /** Added to the child's environment (e.g. NODE_EXTRA_CA_CERTS, WEBHOOK_ALLOW_PRIVATE). */
  env?: Record<string, string>;
  /** Processes of the stack started by the bench itself (see Formward.neighbours). */
  neighbours?: Record<string, number>;
}) {
  const root = repoRoot();
  const bin = path.join(root, 'bin', 'formward.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-bench-'));
  // mkdtemp makes it 0700; as root, PostgreSQL runs as `postgres`, which must enter it.
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    INGEST_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    TEMPORAL_CLI: temporalCli(),
  };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'BASE_URL', 'INGEST_URL'])
    delete env[name];
  if (!env.TEMPORAL_CLI) delete env.TEMPORAL_CLI;
  Object.assign(env, options.env);

  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.createWriteStream(options.logFile);
  const tail = new Tail();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), bin, 'start'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: Ctrl-C reaches us only, and a SIGKILL can reach it all
  });
  const pid = child.pid!;
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      tail.push(chunk.toString());
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  // Last resort if the bench itself dies without cleaning up.
  const killGroup = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', () => alive() && killGroup());

  const stop = async (): Promise<Shutdown> => {
    const since = Date.now();
    let graceful = true;
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        graceful = false;
        console.error(
          '[bench] formward still runs 60 s after SIGTERM: SIGKILL to its process group',
        );
        killGroup();
      }, 60_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    if (!process.env.BENCH_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
    return { graceful, seconds: Math.round((Date.now() - since) / 100) / 10 };
  };

  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(url, 120_000, alive, tail);
    // With neither service embedded, `formward start` writes no runtime.json.
    const runtime: RuntimeInfo =
      env.DATABASE_URL && env.TEMPORAL_ADDRESS
        ? {
            pid,
            databaseUrl: env.DATABASE_URL,
            temporalAddress: env.TEMPORAL_ADDRESS,
            baseUrl: url,
          }
        : await readRuntime(dataDir, 10_000);
    const cli = async (args: string[]) => {
      const { stdout } = await execFileAsync(process.execPath, [bin, ...args], { cwd: root, env });
      return JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>;
    };
    const formward: Formward = {
      url,
      pid,
      dataDir,
      logFile: options.logFile,
      runtime,
      env,
      neighbours: options.neighbours ?? {},
      cli,
      stop,
    };
    return formward;
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(url: string, timeoutMs: number, alive: () => boolean, tail: Tail) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`formward start exited before it was ready:\n${tail}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(500);
  }
  throw new Error(`GET ${url}/readyz not 200 after ${timeoutMs} ms (last: ${last}):\n${tail}`);
}

async function readRuntime(dataDir: string, timeoutMs: number): Promise<RuntimeInfo> {
  const file = path.join(dataDir, 'runtime.json');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as RuntimeInfo;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
      await sleep(200);
    }
  }
}
