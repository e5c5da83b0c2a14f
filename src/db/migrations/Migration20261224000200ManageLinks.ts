import { Migration } from '@mikro-orm/migrations';

/**
 * A submission's manage link (docs/manage-links.md): the SHA-256 of its secret, base64url;
 * null when its form gave no link. Looked up by the submission's id only, so it needs no
 * index. A new nullable column without a default rewrites nothing.
 */
export class Migration20261224000200ManageLinks extends Migration {
  override up(): void {
    this.addSql('alter table submissions add column manage_key_hash text;');
  }

  override down(): void {
    this.addSql('alter table submissions drop column if exists manage_key_hash;');
  }
}
