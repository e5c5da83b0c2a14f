import { Migration } from '@mikro-orm/migrations';

/**
 * The instance's receipt signing keys (docs/receipts.md): Ed25519 key pairs, the private key
 * sealed under APP_SECRET, the public one as a JWK. Never deleted: every public key stays in
 * `/.well-known/jwks.json`, so a receipt signed before a rotation still verifies. The newest
 * key old enough to be published everywhere signs (src/db/sql/receipt-keys.ts).
 */
export class Migration20261223000500ReceiptKeys extends Migration {
  override up(): void {
    this.addSql(`
      create table receipt_keys (
        kid text primary key,
        public_jwk jsonb not null,
        private_key_sealed text not null,
        created_at timestamptz not null default now()
      );
      create index receipt_keys_created_idx on receipt_keys (created_at);
    `);
  }

  override down(): void {
    this.addSql('drop table if exists receipt_keys;');
  }
}
