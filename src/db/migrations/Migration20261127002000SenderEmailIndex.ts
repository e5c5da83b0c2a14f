import { Migration } from '@mikro-orm/migrations';

/**
 * Erasure by e-mail address (docs/dashboard.md, Submissions): the account's submissions of
 * one sender, found by the normalized `email` special field without a scan.
 */
export class Migration20261127002000SenderEmailIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index submissions_sender_email_idx on submissions (account_id, (special_normalized ->> 'email'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop index submissions_sender_email_idx;');
  }
}
