import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { normalizeSpecialFields } from './special-fields';
import { storeSubmission, type FileHandling } from './store-submission';

/** The fields of the dashboard's "send a test submission", like the form examples' sample. */
export const TEST_SUBMISSION_FIELDS = {
  email: 'jane@example.com',
  name: 'Jane (test)',
  message: 'A test submission sent from the Formward dashboard.',
};

/**
 * Stores the sample as a real submission of the form, as `POST /json/{token}?test=true`
 * does; the caller then runs its workflow and waits for the deliveries' results.
 */
export function storeTestSubmission(
  em: EntityManager,
  form: Form,
  from: { userAgent: string | null },
  files: FileHandling,
): Promise<{ id: string }> {
  const payload = { ...TEST_SUBMISSION_FIELDS };
  const special = normalizeSpecialFields(payload);
  return storeSubmission(
    em,
    {
      formId: form.id,
      accountId: form.accountId,
      payload,
      special: special.ok ? special.special : null,
      sourceIp: null,
      userAgent: from.userAgent,
      referrer: null,
      spamReason: null,
      fillMs: null,
      files: [],
    },
    files,
  );
}
