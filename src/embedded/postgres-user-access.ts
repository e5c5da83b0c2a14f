import fs from 'node:fs';
import path from 'node:path';

export type UserIds = { uid: number; gid: number };

/** Whether `user` may enter `dir` (search permission), judged from its mode and owner. */
function canTraverse(dir: string, user: UserIds): boolean {
  const { mode, uid, gid } = fs.statSync(dir);
  if (uid === user.uid) return (mode & 0o100) !== 0;
  if (gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/** The first directory on the way to `target` (itself excluded) that `user` cannot enter, or null. */
export function blockedParent(target: string, user: UserIds): string | null {
  const parents: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    parents.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  return parents.find((dir) => !canTraverse(dir, user)) ?? null;
}

/**
 * As root PostgreSQL runs as the `postgres` user, which must reach DATA_DIR (its binaries are
 * copied there when it cannot reach them where they are: postgres-binaries.ts). Formward
 * changes no permission outside DATA_DIR, so when a parent directory stops it, it stops here
 * and says exactly what to change.
 */
export function assertPostgresCanReach(dataDir: string, user: UserIds): void {
  const blocked = blockedParent(dataDir, user);
  if (!blocked) return;
  const mode = (fs.statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
  throw new Error(
    `running as root, PostgreSQL runs as the "postgres" user, which cannot enter ${blocked} ` +
      `(mode ${mode}) on the way to DATA_DIR ${dataDir}. Formward changes no permissions ` +
      'outside DATA_DIR: set DATA_DIR to a directory it can reach (e.g. /var/lib/formward), ' +
      `or let the postgres user through with \`setfacl -m u:postgres:x ${blocked}\` ` +
      `(or \`chmod o+x ${blocked}\`).`,
  );
}
