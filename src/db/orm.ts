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
  // libpq's `?host=/folder` (a Unix socket, as the embedded PostgreSQL's URL has it):
  // MikroORM reads only the address part of the URL, so the folder is given as the host.
  const socketFolder = new URL(databaseUrl).searchParams.get('host');
  return MikroORM.init({
    clientUrl: databaseUrl,
    ...(socketFolder ? { host: socketFolder } : {}),
    entities,
    extensions: [Migrator],
    // Our migrations are written by hand: no schema snapshot file, which MikroORM 7 would
    // otherwise write into the working directory after every run.
    migrations: {
      migrationsList,
      transactional: true,
      allOrNothing: true,
      silent: true,
      snapshot: false,
      snapshotOnMigrate: false,
    },
    // A connection the server dropped (a restart) is discarded by the `pg` pool on its 'error'
    // event; idle ones are closed after 10 s, and a request waits at most 10 s for a
    // connection (pg's `connectionTimeoutMillis`, which has no limit by default), so an outage
    // ends in a prompt 503 (docs/api-conventions.md).
    pool: { min: 0, max: options.poolMax ?? 20, idleTimeoutMillis: 10_000 },
    driverOptions: { connectionTimeoutMillis: 10_000 },
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  });
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}
