import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import type { UseCaseAudit } from '../audit/use-case-audit';
import { refuseFileFieldsWithoutUploads, refuseLimitsOutsideFields } from './field-rules';
import { askRecipientsToConfirm, type FormUseCaseDeps } from './form-use-case-deps';
import { type FormChanges, insertForm } from './forms';

/**
 * Creating a form, for `POST /api/forms` and the dashboard's new-form page: the settings must
 * not leave a file field without uploads (FileFieldsRefusedError) nor name a unique field
 * outside the fields (LimitsRefusedError), the owner's form budget
 * must allow one more (LimitReachedError, MAX_FORMS_PER_ACCOUNT), and each recipient address
 * not yet confirmed for the account is asked to confirm.
 */
export async function createForm(
  em: EntityManager,
  deps: FormUseCaseDeps,
  input: { accountId: string; settings: { name: string } & FormChanges },
): Promise<{ form: Form; audit: UseCaseAudit }> {
  const { settings } = input;
  refuseFileFieldsWithoutUploads(settings.fields, settings.acceptFiles ?? false);
  refuseLimitsOutsideFields(settings.fields, settings.limits);
  const form = await insertForm(em, input.accountId, settings, deps.config.budgets.formsPerAccount);
  await askRecipientsToConfirm(em, deps, form);
  return { form, audit: { targetId: form.id, summary: `created form “${form.name}”` } };
}
