import { Migration } from '@mikro-orm/migrations';

/**
 * The manage link the autoresponse carries (docs/manage-links.md): a secret of its own, made
 * when the mail is sent (the link answered at ingest is known only to that answer), stored
 * only as its SHA-256. Either secret opens the submission. A new nullable column without a
 * default rewrites nothing.
 */
export class Migration20261224000400ManageMailLinks extends Migration {
  override up(): void {
    this.addSql('alter table submissions add column mail_key_hash text;');
  }

  override down(): void {
    this.addSql('alter table submissions drop column if exists mail_key_hash;');
  }
}
