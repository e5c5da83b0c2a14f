import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';

export type Orm = MikroORM;

/** Connects MikroORM to PostgreSQL; one ORM per process, one `em.fork()` per unit of work. */
export async function createOrm(
  databaseUrl: string,
  options: { poolMax?: number } = {},
): Promise<Orm> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true },
    pool: { min: 0, max: options.poolMax ?? 20 },
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  });
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((migration) => migration.name);
}
