import { MAX_FIELDS_BYTES, MAX_OPTIONS_IN_ALL, MAX_PAGE_BYTES } from './form-fields';

/**
 * A form's definition has a byte budget, one rule for every door that changes it (the API's
 * create and update, the dashboard's builder): what is stored is cached, rendered into the
 * page and the embed snippet, and listed, so its size bounds all of those.
 */

/** Bytes of the value as stored and answered: JSON, UTF-8. */
export const serializedBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

const optionCount = (field: unknown): number => {
  const options = (field as { options?: unknown } | null)?.options;
  return Array.isArray(options) ? options.length : 0;
};

const optionsInAll = (fields: readonly unknown[]): number =>
  fields.reduce<number>((sum, field) => sum + optionCount(field), 0);

/** What is over the budget in a field list (MAX_FIELDS_BYTES, MAX_OPTIONS_IN_ALL); empty: within. */
export function fieldListBudgetProblems(fields: readonly unknown[]): string[] {
  const problems: string[] = [];
  const bytes = serializedBytes(fields);
  if (bytes > MAX_FIELDS_BYTES)
    problems.push(`at most ${MAX_FIELDS_BYTES} bytes when serialized (this list is ${bytes})`);
  const options = optionsInAll(fields);
  if (options > MAX_OPTIONS_IN_ALL)
    problems.push(`at most ${MAX_OPTIONS_IN_ALL} options in all (this list has ${options})`);
  return problems;
}

/**
 * What is over the budget in a field list edited one step at a time (the dashboard's builder),
 * given the stored list it replaces. A list stored before the budget existed may be over it:
 * a step that grows it neither in bytes nor in options (removing a field, shortening a text,
 * moving one) is let through, so its owner can bring it back within; one that grows it is
 * refused like any list over the budget. The API, which replaces the whole list, keeps the
 * strict rule (fieldListBudgetProblems).
 */
export function fieldListEditBudgetProblems(
  stored: readonly unknown[],
  edited: readonly unknown[],
): string[] {
  const problems = fieldListBudgetProblems(edited);
  const grows =
    serializedBytes(edited) > serializedBytes(stored) ||
    optionsInAll(edited) > optionsInAll(stored);
  return grows ? problems : [];
}

/** What is over the budget in a page (MAX_PAGE_BYTES, its texts together); null: within. */
export function pageBudgetProblem(page: unknown): string | null {
  const bytes = serializedBytes(page);
  return bytes > MAX_PAGE_BYTES
    ? `at most ${MAX_PAGE_BYTES} bytes when serialized, its texts together (this page is ${bytes})`
    : null;
}
