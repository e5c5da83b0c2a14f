/**
 * A creation refused because a budget against amplification is used up (docs/security.md,
 * "Budgets against amplification"): the API answers 409 `limit_reached` with this message, which names the limit and
 * its value; the dashboard shows it on the page.
 */
export class LimitReachedError extends Error {
  override name = 'LimitReachedError';

  constructor(
    readonly limit: string,
    readonly max: number,
    message: string,
  ) {
    super(message);
  }
}

/** For `.catch`: a refusal over a budget becomes the value (to show it), anything else throws on. */
export function limitReachedOrThrow(error: unknown): LimitReachedError {
  if (error instanceof LimitReachedError) return error;
  throw error;
}

/** A budget knob: at most `max` (0 means no limit). */
export const withinBudget = (count: number, max: number) => max <= 0 || count < max;

export function formLimitReached(count: number, max: number): LimitReachedError {
  return new LimitReachedError(
    'MAX_FORMS_PER_ACCOUNT',
    max,
    `This account’s owner has ${count} forms across the accounts they own; MAX_FORMS_PER_ACCOUNT allows at most ${max} per owner. Delete a form to create another.`,
  );
}

export function pluginLimitReached(count: number, max: number): LimitReachedError {
  return new LimitReachedError(
    'MAX_PLUGINS_PER_FORM',
    max,
    `This form has ${count} plugins; MAX_PLUGINS_PER_FORM allows at most ${max}. Delete a plugin to add another.`,
  );
}

export function accountLimitReached(count: number, max: number): LimitReachedError {
  return new LimitReachedError(
    'MAX_ACCOUNTS_PER_USER',
    max,
    `You own ${count} accounts; MAX_ACCOUNTS_PER_USER allows at most ${max}. Delete an account or transfer one to another member to create another.`,
  );
}

export function apiKeyLimitReached(count: number, max: number): LimitReachedError {
  return new LimitReachedError(
    'MAX_API_KEYS_PER_ACCOUNT',
    max,
    `This account has ${count} API keys; MAX_API_KEYS_PER_ACCOUNT allows at most ${max}. Revoke a key to create another.`,
  );
}
