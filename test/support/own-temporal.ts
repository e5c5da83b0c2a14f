import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/embedded/temporal-server';
import { sharedStack } from './shared-stack';

/**
 * A Temporal dev server of the suite's own, for tests that stop it. It keeps its ports and
 * persistence file, so starting it again brings back the same server at the same address.
 * Registers beforeAll (start) and afterAll (stop); call it before useTestStack, so the stack
 * stops first.
 */
export function useOwnTemporal() {
  let dataDir = '';
  let ports: { port: number; uiPort: number };
  let server: TemporalDevServer | null = null;
  const own = {
    /** Its address, the same across restarts. */
    address: '',
    async start() {
      server = await startTemporalDevServer({
        cliPath: sharedStack().temporalCli,
        dataDir,
        ...ports,
      });
      own.address = server.address;
    },
    async stop() {
      await server?.stop();
      server = null;
    },
  };
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-own-temporal-'));
    ports = { port: await freePort(), uiPort: await freePort() };
    await own.start();
  });
  afterAll(async () => {
    try {
      await own.stop();
    } finally {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
  return own;
}
