import type { z } from 'zod';
import {
  fieldListBudgetProblems,
  fieldListEditBudgetProblems,
} from '../../domain/forms/definition-budget';
import { fileFieldsProblem } from '../../domain/forms/field-rules';
import type { FormField } from '../../domain/forms/form-fields';
import { type FormLimits, limitsProblem } from '../../domain/forms/form-limits';
import { formFieldListWithoutBudget } from './form-fields-schemas';
import { type DraftErrors, type FieldDraft, fieldOfDraft } from './field-drafts';

/** One action of the builder on the stored list; `target` is the current name of the field. */
export type FieldListEdit =
  | { intent: 'add'; draft: FieldDraft }
  | { intent: 'save'; target: string; draft: FieldDraft }
  | { intent: 'up' | 'down' | 'remove'; target: string };

export type FieldListResult =
  /** The new list; null when the last field went (the form is free-form again). */
  | { ok: true; fields: FormField[] | null }
  /** `stale`: the target is not in the list any more (changed in another tab or by the API). */
  | { ok: false; errors: DraftErrors; stale?: boolean };

/** The problems of the edited field by input, the rest as the list's. */
function errorsOf(issues: z.core.$ZodIssue[], edited: number | null): DraftErrors {
  const errors: DraftErrors = {};
  for (const issue of issues) {
    const [index, key] = issue.path;
    const where = index === edited && typeof key === 'string' ? key : 'list';
    // A problem of the whole list (its byte budget) says so, like the API's `fields: …`.
    const prefix =
      where !== 'list'
        ? ''
        : typeof index === 'number'
          ? `field ${index + 1}: `
          : 'The field list: ';
    errors[where] ??= `${prefix}${issue.message}`;
  }
  return errors;
}

const moved = (fields: FormField[], from: number, to: number) => {
  const copy = [...fields];
  const [field] = copy.splice(from, 1);
  copy.splice(to, 0, field!);
  return copy;
};

/**
 * Applies the edit to the stored list and checks the whole new list as PATCH
 * /api/forms/{id} would (`formFieldList`, then a file field needing `accept_files` and the
 * limits' unique field staying in the list), except
 * that an edit which does not grow a list already over the byte budget passes
 * (fieldListEditBudgetProblems): either the list to store, or the problems by editor input
 * and nothing changes.
 */
export function applyFieldEdit(
  stored: FormField[],
  edit: FieldListEdit,
  form: { acceptFiles: boolean; limits?: FormLimits | null },
): FieldListResult {
  const at =
    edit.intent === 'add' ? stored.length : stored.findIndex((f) => f.name === edit.target);
  if (at < 0)
    return {
      ok: false,
      stale: true,
      errors: {
        list: `There is no field named “${edit.intent === 'add' ? '' : edit.target}” any more: the list was changed elsewhere. It is shown as it is now.`,
      },
    };
  let candidate: unknown[];
  let edited: number | null = null;
  switch (edit.intent) {
    case 'add':
    case 'save': {
      const { field, errors } = fieldOfDraft(edit.draft);
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      candidate = [...stored];
      candidate[at] = field;
      edited = at;
      break;
    }
    case 'up':
    case 'down': {
      const to = edit.intent === 'up' ? at - 1 : at + 1;
      candidate = to < 0 || to >= stored.length ? stored : moved(stored, at, to);
      break;
    }
    case 'remove':
      candidate = stored.filter((_, index) => index !== at);
  }
  const parsed = formFieldListWithoutBudget.safeParse(candidate);
  if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error.issues, edited) };
  // The byte budget, weighed against the stored list as the schema would store it: an edit
  // that does not grow a list stored over the budget before it existed is let through.
  const storedParsed = formFieldListWithoutBudget.safeParse(stored);
  const [overBudget] = fieldListEditBudgetProblems(
    storedParsed.success ? storedParsed.data : stored,
    parsed.data,
  );
  if (overBudget) {
    // A list stored over the budget (before it existed) may only shrink: say how.
    const storedOver = fieldListBudgetProblems(stored).length > 0;
    const hint = storedOver
      ? '; it is over the budget already: remove fields or options first'
      : '';
    return { ok: false, errors: { list: `The field list: ${overBudget}${hint}` } };
  }
  // The API's rule (field-rules.ts), said in the dashboard's words.
  if (fileFieldsProblem(parsed.data, form.acceptFiles))
    return {
      ok: false,
      errors: {
        type: 'this form does not accept files: tick “Accept file uploads” under Settings first',
      },
    };
  // Removing or renaming the unique field would switch the once-per-value gate off unseen.
  if (limitsProblem(parsed.data, form.limits))
    return {
      ok: false,
      errors: {
        list: `“${form.limits?.unique_field}” is the form's unique field: choose another one (or none) under Settings, Limits first`,
      },
    };
  return { ok: true, fields: parsed.data.length > 0 ? parsed.data : null };
}
