import type { Config } from '../config/config';
import { createOrm, migrate, type Orm } from '../db/orm';
import { openDatabase } from '../runtime/database';

/**
 * Runs an administrative command against the database `openDatabase` finds: DATABASE_URL,
 * else the embedded PostgreSQL of a running `formward start`, else one started just for
 * this command (and stopped after it).
 */
export async function withDatabase<T>(config: Config, fn: (orm: Orm) => Promise<T>): Promise<T> {
  const database = await openDatabase(config, () => undefined);
  try {
    const orm = await createOrm(database.url, { poolMax: 2 });
    try {
      await migrate(orm);
      return await fn(orm);
    } finally {
      await orm.close();
    }
  } finally {
    await database.stop();
  }
}
