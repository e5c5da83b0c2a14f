import { Migration } from '@mikro-orm/migrations';

/**
 * Caps on autoresponses across forms and accounts (docs/autoresponse.md, "Limits against
 * abuse"): the submitter's network is kept with each send, and both the sends to one address
 * and those one network caused are counted through an index.
 */
export class Migration20261212000400AutoresponseCaps extends Migration {
  override up(): void {
    this.addSql(`
      alter table autoresponse_sends add column client text;
      create index autoresponse_sends_address_idx on autoresponse_sends (address, sent_at);
      create index autoresponse_sends_client_idx on autoresponse_sends (client, sent_at)
        where client is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index autoresponse_sends_client_idx;
      drop index autoresponse_sends_address_idx;
      alter table autoresponse_sends drop column client;
    `);
  }
}
