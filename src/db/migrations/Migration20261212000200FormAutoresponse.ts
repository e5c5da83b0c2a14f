import { Migration } from '@mikro-orm/migrations';

/**
 * The autoresponse to the submitter (docs/autoresponse.md): the form's settings; per form and
 * address, the submission whose autoresponse was sent last and when (one per
 * AUTORESPONSE_INTERVAL, claimed in one statement); and the attempts in the delivery log, which
 * have no plugin, so `plugin_id` may be null when `plugin_type` names what was delivered. The
 * suppression list is the account's: recipient_confirmations.unsubscribed_at, the one-click
 * unsubscribe every recipient mail has.
 */
export class Migration20261212000200FormAutoresponse extends Migration {
  override up(): void {
    this.addSql(`
      alter table forms add column autoresponse jsonb;

      alter table delivery_attempts
        alter column plugin_id drop not null,
        add column plugin_type text,
        add constraint delivery_attempts_target_check
          check ((plugin_id is null) = (plugin_type is not null) and
                 (plugin_type is null or plugin_type = 'autoresponse'));

      create table autoresponse_sends (
        form_id bigint not null references forms (id) on delete cascade,
        address text not null,
        submission_id bigint not null,
        sent_at timestamptz not null,
        primary key (form_id, address)
      );
    `);
  }

  override down(): void {
    this.addSql(`
      drop table if exists autoresponse_sends;
      delete from delivery_attempts where plugin_id is null;
      alter table delivery_attempts
        drop constraint delivery_attempts_target_check,
        drop column plugin_type,
        alter column plugin_id set not null;
      alter table forms drop column autoresponse;
    `);
  }
}
