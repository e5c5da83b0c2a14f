import { Migration } from '@mikro-orm/migrations';

/**
 * Recovery runs (docs/recovery.md): one row per `POST .../plugins/{id}/recover`, the window it
 * covers (since..until, until being the request time) and the progress its workflow records.
 */
export class Migration20261202000000PluginRecoveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table plugin_recoveries (
        id bigserial primary key,
        plugin_id bigint not null references plugins (id) on delete cascade,
        account_id bigint not null references accounts (id) on delete cascade,
        since timestamptz not null,
        until timestamptz not null,
        total integer not null,
        done integer not null default 0,
        failed integer not null default 0,
        status text not null check (status in ('running', 'completed', 'failed')),
        workflow_id text,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index plugin_recoveries_plugin_idx on plugin_recoveries (plugin_id, created_at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists plugin_recoveries;');
  }
}
