import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log (docs/audit-log.md): one row per change made by a person, a key or the
 * operator's CLI. The actor's ids carry no foreign key, so an entry outlives a removed member
 * or a deleted key; `actor_label` keeps who it was at the time. Listed newest first per
 * account, filtered by action, actor and target.
 */
export class Migration20261213000300AuditEvents extends Migration {
  override up(): void {
    this.addSql(`
      create table audit_events (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        occurred_at timestamptz not null default now(),
        actor_type text not null check (actor_type in ('user', 'api_key', 'operator')),
        actor_user_id bigint,
        actor_api_key_id bigint,
        actor_label text not null,
        client_address text,
        action text not null check (action ~ '^[a-z_]+(\\.[a-z_]+)+$'),
        target_type text,
        target_id text,
        summary text not null default ''
      );
      create index audit_events_account_time_idx on audit_events (account_id, occurred_at desc, id desc);
      create index audit_events_action_idx on audit_events (account_id, action, occurred_at desc, id desc);
      create index audit_events_target_idx on audit_events (account_id, target_type, target_id);
      create index audit_events_user_idx on audit_events (account_id, actor_user_id) where actor_user_id is not null;
      create index audit_events_key_idx on audit_events (account_id, actor_api_key_id) where actor_api_key_id is not null;
      create index audit_events_occurred_idx on audit_events (occurred_at);
    `);
  }

  override down(): void {
    this.addSql('drop table audit_events;');
  }
}
