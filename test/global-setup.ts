import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { findTemporalCli } from '../src/embedded/temporal-cli';
import { startTemporalDevServer } from '../src/embedded/temporal-server';
import { createTestCertificates, type TestCertificates } from './support/test-ca';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: {
      databaseUrl: string;
      temporalAddress: string;
      temporalCli: string;
      dataDir: string;
      certificates: TestCertificates;
    };
  }
}

/** Starts the real PostgreSQL and Temporal dev server every suite shares; stops them at the end. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-test-'));
  fs.chmodSync(dataDir, 0o755);
  // Node reads NODE_EXTRA_CA_CERTS when a process starts: set here, before vitest forks the
  // test processes, it makes them (and the workers they run) trust the test receivers.
  const certificates = createTestCertificates(path.join(dataDir, 'tls'));
  process.env.NODE_EXTRA_CA_CERTS = certificates.caCertFile;
  const postgres = await startEmbeddedPostgres({ dataDir });
  const temporalCli = await findTemporalCli(process.env.TEMPORAL_CLI);
  const temporal = await startTemporalDevServer({
    cliPath: temporalCli,
    dataDir,
    namespace: 'default',
  });
  project.provide('stack', {
    databaseUrl: postgres.url,
    temporalAddress: temporal.address,
    temporalCli,
    dataDir,
    certificates,
  });
  return async () => {
    await temporal.stop();
    await postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
