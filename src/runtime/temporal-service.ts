import type { Config } from '../config/config';
import { readRuntimeFile } from '../embedded/runtime-file';
import { lowerPriority } from '../embedded/process-priority';
import { findTemporalCli } from '../embedded/temporal-cli';
import { startTemporalDevServer } from '../embedded/temporal-server';

export type TemporalService = {
  address: string;
  uiUrl: string | null;
  embedded: boolean;
  stop(): Promise<void>;
};

/**
 * TEMPORAL_ADDRESS when set; otherwise `temporal server start-dev` with its data under
 * DATA_DIR, at nice WORKER_NICE: it serves the delivery pipeline, never a submitter's answer.
 * `log` hears the dev server's output, `warn` what went wrong but is no reason to stop.
 */
export async function openTemporal(
  config: Config,
  log: (line: string) => void,
  warn: (line: string) => void = log,
): Promise<TemporalService> {
  if (config.temporal.address) {
    return {
      address: config.temporal.address,
      uiUrl: config.temporal.uiUrl ?? null,
      embedded: false,
      stop: async () => undefined,
    };
  }
  const running = readRuntimeFile(config.dataDir);
  if (running) {
    return {
      address: running.temporalAddress,
      uiUrl: config.temporal.uiUrl ?? running.temporalUiUrl,
      embedded: false,
      stop: async () => undefined,
    };
  }
  const cliPath = await findTemporalCli(config.temporal.cliPath);
  const server = await startTemporalDevServer({
    cliPath,
    dataDir: config.dataDir,
    namespace: config.temporal.namespace,
    sqliteSynchronous: config.temporal.devSqliteSynchronous,
    log,
  });
  lowerPriority(server.pid, config.worker.nice, warn);
  return {
    address: server.address,
    uiUrl: config.temporal.uiUrl ?? server.uiUrl,
    embedded: true,
    stop: () => server.stop(),
  };
}
