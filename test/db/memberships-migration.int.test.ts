import { describe, expect, it } from 'vitest';
import { useScratchDatabase } from '../support/scratch-database';

// Migration20261213000100Memberships: each user becomes a member of the account it belonged
// to, the account's first user its owner and any later one an admin (they had every right),
// and every account keeps exactly one owner.
describe('the memberships migration', () => {
  const db = useScratchDatabase({
    migrateTo: 'Migration20261212000400AutoresponseCaps',
    poolMax: 2,
  });
  const { sql } = db;

  it('makes the first user of each account its owner and the others admins', async () => {
    const [one, two] = await sql<{ id: string }>(
      `insert into accounts (name, created_at, updated_at) values ('one', now(), now()),
         ('two', now(), now()) returning id`,
    );
    const users = await sql<{ id: string }>(
      `insert into users (account_id, email, password_hash, created_at, updated_at) values
         (?, 'first@one.example', 'x', now() - interval '2 days', now()),
         (?, 'second@one.example', 'x', now() - interval '1 day', now()),
         (?, 'only@two.example', 'x', now(), now())
       returning id`,
      [one!.id, one!.id, two!.id],
    );

    await db.orm.migrator.up();

    const rows = await sql<{ account_id: string; user_id: string; role: string }>(
      'select account_id, user_id, role from memberships order by user_id',
    );
    expect(rows.map((row) => [String(row.account_id), String(row.user_id), row.role])).toEqual([
      [String(one!.id), String(users[0]!.id), 'owner'],
      [String(one!.id), String(users[1]!.id), 'admin'],
      [String(two!.id), String(users[2]!.id), 'owner'],
    ]);
    await expect(
      sql(`update memberships set role = 'owner' where user_id = ?`, [users[1]!.id]),
    ).rejects.toThrow(/memberships_one_owner/);
  });
});
