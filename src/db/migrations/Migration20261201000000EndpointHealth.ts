import { Migration } from '@mikro-orm/migrations';

/**
 * Endpoint health (docs/endpoint-health.md): each plugin counts its consecutive exhausted
 * deliveries and is disabled, with a reason, once they pass the threshold; a disabled plugin's
 * later submissions record a `skipped` attempt. A `?test=true` run marks its submission so
 * that no skipped record is written for it.
 */
export class Migration20261201000000EndpointHealth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table plugins
        add column consecutive_failures integer not null default 0,
        add column failing_since timestamptz,
        add column last_success_at timestamptz,
        add column disabled_reason text,
        add column disabled_at timestamptz;
      alter table delivery_attempts drop constraint delivery_attempts_status_check;
      alter table delivery_attempts add constraint delivery_attempts_status_check
        check (status in ('succeeded', 'failed', 'pending_retry', 'skipped'));
      alter table submissions add column is_test boolean not null default false;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table submissions drop column is_test;
      delete from delivery_attempts where status = 'skipped';
      alter table delivery_attempts drop constraint delivery_attempts_status_check;
      alter table delivery_attempts add constraint delivery_attempts_status_check
        check (status in ('succeeded', 'failed', 'pending_retry'));
      alter table plugins
        drop column consecutive_failures,
        drop column failing_since,
        drop column last_success_at,
        drop column disabled_reason,
        drop column disabled_at;
    `);
  }
}
