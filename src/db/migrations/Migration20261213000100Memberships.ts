import { Migration } from '@mikro-orm/migrations';

/**
 * Teams (docs/teams.md): a user belongs to accounts through memberships, each with a role.
 * Every account keeps exactly one owner (a unique index on the owners). Each existing user
 * becomes a member of the account it belonged to: the first user of an account its owner,
 * any other an admin (they had every right before). `users.account_id` goes: a user's
 * accounts are its memberships, and a session names the one it acts in.
 */
export class Migration20261213000100Memberships extends Migration {
  override up(): void {
    this.addSql(`
      create table memberships (
        account_id bigint not null references accounts (id) on delete cascade,
        user_id bigint not null references users (id) on delete cascade,
        role text not null check (role in ('owner', 'admin', 'viewer')),
        last_used_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (account_id, user_id)
      );
      create unique index memberships_one_owner on memberships (account_id) where role = 'owner';
      create index memberships_user_idx on memberships (user_id);
      insert into memberships (account_id, user_id, role, created_at, updated_at)
        select account_id, id,
               case when row_number() over (partition by account_id order by created_at, id) = 1
                    then 'owner' else 'admin' end,
               created_at, created_at
          from users;
      alter table users drop column account_id;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table users add column account_id bigint references accounts (id) on delete cascade;
      update users u set account_id = (
        select m.account_id from memberships m where m.user_id = u.id
         order by (m.role = 'owner') desc, m.created_at limit 1);
      delete from users where account_id is null;
      alter table users alter column account_id set not null;
      create index users_account_idx on users (account_id);
      drop table memberships;
    `);
  }
}
