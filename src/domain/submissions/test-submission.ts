import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { checkSubmission, prepareSubmission } from './prepare-submission';
import { storeSubmission, type FileHandling, type StartHold } from './store-submission';

/**
 * A test run's own process starts its workflow (in test mode) and waits for the result: no
 * worker takes the start meanwhile; should that process die, one starts it after this.
 */
export const TEST_RUN_START_HOLD: StartHold = { heldMs: 120_000 };

/** The fields of the dashboard's "send a test submission", like the form examples' sample. */
export const TEST_SUBMISSION_FIELDS = {
  email: 'jane@example.com',
  name: 'Jane (test)',
  message: 'A test submission sent from the Formward dashboard.',
};

/**
 * Stores the sample as a real submission of the form, through the ingest rules as
 * `POST /json/{token}?test=true` does; the caller then runs its workflow and waits for the
 * deliveries' results.
 */
export function storeTestSubmission(
  em: EntityManager,
  form: Form,
  from: { userAgent: string | null },
  files: FileHandling,
): Promise<{ id: string }> {
  const checked = checkSubmission({
    form: { id: form.id, accountId: form.accountId },
    fields: { ...TEST_SUBMISSION_FIELDS },
    files: [],
    request: {
      receivedAtMs: Date.now(),
      sourceIp: null,
      userAgent: from.userAgent,
      referrer: null,
    },
    limits: 'check',
  });
  // The sample is fixed and passes every rule (test/domain/prepare-submission.test.ts).
  if (!checked.ok)
    throw new Error(
      `the test sample is refused: ${JSON.stringify(checked.problem.fieldProblems ?? checked.problem.errors)}`,
    );
  // The owner's test needs no CAPTCHA, as `?test=true` by the owner's key.
  const submission = prepareSubmission({ ...checked.submission, captcha: 'none' });
  return storeSubmission(em, submission, files, { start: TEST_RUN_START_HOLD });
}
