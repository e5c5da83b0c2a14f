import { Migration } from '@mikro-orm/migrations';

/**
 * The caps on mail to an address count from ledgers no owner action lowers (docs/autoresponse.md,
 * "What is kept"; docs/teams.md, "Invitations"): erasing a sender, deleting a form or an
 * account leave them, and the hourly retention purge drops rows once no cap reads them.
 * They keep keyed hashes of addresses and networks (src/domain/mail/address-keys.ts), not
 * the addresses, so what outlives an erasure names nobody.
 *
 * autoresponse_sends loses its cascade from forms and holds keys from now on. Its rows hold
 * addresses in clear, which SQL cannot key (the key comes from APP_SECRET), so they go: the
 * caps count afresh from the upgrade. invitation_mails records every invitation mailed (per
 * address a day, per owning user an hour); invitation_opt_outs the addresses that asked for none.
 */
export class Migration20261215000100MailCapLedgers extends Migration {
  override up(): void {
    this.addSql(`
      delete from autoresponse_sends;
      alter table autoresponse_sends drop constraint autoresponse_sends_form_id_fkey;
      alter table autoresponse_sends rename column address to address_key;
      alter table autoresponse_sends rename column client to client_key;

      create table invitation_mails (
        address_key text not null,
        account_id bigint not null,
        owner_user_id bigint,
        sent_at timestamptz not null default now()
      );
      create index invitation_mails_address_idx on invitation_mails (address_key, sent_at);
      create index invitation_mails_owner_idx on invitation_mails (owner_user_id, sent_at);

      create table invitation_opt_outs (
        address_key text primary key,
        opted_out_at timestamptz not null default now()
      );
    `);
  }

  override down(): void {
    this.addSql(`
      drop table if exists invitation_opt_outs;
      drop table if exists invitation_mails;
      delete from autoresponse_sends;
      alter table autoresponse_sends rename column client_key to client;
      alter table autoresponse_sends rename column address_key to address;
      alter table autoresponse_sends add constraint autoresponse_sends_form_id_fkey
        foreign key (form_id) references forms (id) on delete cascade;
    `);
  }
}
