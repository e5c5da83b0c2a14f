import { Migration } from '@mikro-orm/migrations';

/**
 * CAPTCHA on forms (docs/captcha.md): the form's provider, site key and sealed secret in one
 * jsonb column, null when the form has none. Used ALTCHA challenges of forms go to the
 * `altcha_used_challenges` table the sign-up form already uses (a signature is unique to its
 * challenge), so single use holds across processes; each insert purges the expired rows.
 */
export class Migration20261212000100FormCaptcha extends Migration {
  override up(): void {
    this.addSql('alter table forms add column captcha jsonb;');
  }

  override down(): void {
    this.addSql('alter table forms drop column if exists captcha;');
  }
}
