import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import type { AccountMailing } from '../accounts/registration';
import { requestConfirmations } from '../recipients/confirmations';

/**
 * What creating and changing a form need (the app context has it all): the budgets, the
 * account mail for confirmation requests, and ingest's form cache to forget a changed form.
 */
export type FormUseCaseDeps = {
  config: {
    budgets: { formsPerAccount: number };
    /** ACCOUNT_MAIL_PER_HOUR. */
    accountMailPerHour: number;
  };
  accounts: { mailing: AccountMailing };
  forms: { forget(endpointToken: string): void };
};

/**
 * Each address of the form not confirmed for the account is asked to confirm (docs/security.md,
 * "Recipients and mail"); requestConfirmations skips the confirmed and the pending.
 */
export function askRecipientsToConfirm(
  em: EntityManager,
  deps: FormUseCaseDeps,
  form: Form,
): Promise<string[]> {
  return requestConfirmations(em, deps.accounts.mailing, {
    accountId: form.accountId,
    formName: form.name,
    addresses: form.notificationEmailAddresses,
    mailPerHour: deps.config.accountMailPerHour,
  });
}
