import type { Config } from '../config/config';
import { createOrm, migrate, type Orm } from '../db/orm';
import { readRuntimeFile } from '../embedded/runtime-file';
import { openDatabase } from '../runtime/database';

/**
 * Runs an administrative command against the database: DATABASE_URL, else the embedded
 * PostgreSQL of a running `formward start`, else one started just for this command.
 */
export async function withDatabase<T>(config: Config, fn: (orm: Orm) => Promise<T>): Promise<T> {
  let url = config.databaseUrl;
  let stop = async () => undefined as void;
  if (!url) {
    const running = readRuntimeFile(config.dataDir);
    if (running) url = running.databaseUrl;
    else {
      const database = await openDatabase(config, () => undefined);
      url = database.url;
      stop = () => database.stop();
    }
  }
  try {
    const orm = await createOrm(url!, { poolMax: 2 });
    try {
      await migrate(orm);
      return await fn(orm);
    } finally {
      await orm.close();
    }
  } finally {
    await stop();
  }
}
