import { Migration } from '@mikro-orm/migrations';

/**
 * Failed sign-ins counted per key (`ip:<address>`, `email:<address>`) in a fixed window, in
 * PostgreSQL so the limit holds across every `serve` process.
 */
export class Migration20261125000400LoginThrottle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table login_throttle (
        key text primary key,
        window_started_at timestamptz not null,
        failures integer not null
      );
      create index login_throttle_window_idx on login_throttle (window_started_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists login_throttle;`);
  }
}
