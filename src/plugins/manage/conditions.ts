import { z } from 'zod';

/*
 * A plugin's conditions (docs/plugins.md, "Conditions"): which submissions it is sent. Pure:
 * the delivery plan (activities/delivery-plan.ts) and the dashboard's dry run both call
 * conditionsMatch on a submission's payload.
 *
 * How a rule compares (the same everywhere):
 * - the field is looked up by its exact name (`Email` and `email` are two fields);
 * - values compare as text, trimmed, case-insensitively (`Yes` equals `yes `); a number or a
 *   boolean is its JSON text (`5`, `true`), so `equals 5` matches `5` and `"5"`, not `5.0`;
 * - a field holding a list (checkboxes, a multi-select) matches `equals`, `contains` and
 *   `one_of` when one of its values does, and `not_equals`, `not_contains` when none does;
 * - a missing field, null, an empty string (or only spaces) and an empty list are empty:
 *   `is_empty` holds, `equals` / `contains` / `one_of` do not, the negations do.
 */

export const CONDITION_OPS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'is_empty',
  'not_empty',
  'one_of',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** The ops that compare with a `value` (a list of them for `one_of`). */
const OPS_WITH_VALUE: ReadonlySet<ConditionOp> = new Set([
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'one_of',
]);

export const MAX_CONDITION_RULES = 20;
export const MAX_FIELD_NAME_LENGTH = 100;
export const MAX_CONDITION_VALUE_LENGTH = 500;
export const MAX_ONE_OF_VALUES = 50;

export type ConditionRule = { field: string; op: ConditionOp; value?: string | string[] };
export type Conditions = { match: 'all' | 'any'; rules: ConditionRule[] };

/** A field name as conditions and include_fields take it. */
export const fieldName = z
  .string('must be a field name')
  .trim()
  .min(1, 'must be a field name')
  .max(MAX_FIELD_NAME_LENGTH, `must be at most ${MAX_FIELD_NAME_LENGTH} characters`);

/** A compared value: text, or a number or boolean taken as its text. */
const scalarValue = z
  .union([z.string(), z.number(), z.boolean()], 'must be text')
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty (use is_empty)')
      .max(MAX_CONDITION_VALUE_LENGTH, `must be at most ${MAX_CONDITION_VALUE_LENGTH} characters`),
  );

const rule = z
  .object({
    field: fieldName,
    op: z.enum(CONDITION_OPS, `must be one of ${CONDITION_OPS.join(', ')}`),
    value: z.unknown().optional(),
  })
  .transform((given, ctx): ConditionRule => {
    const { field, op } = given;
    if (!OPS_WITH_VALUE.has(op)) return { field, op }; // a value given anyway is ignored
    if (given.value === undefined || given.value === null) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `is required for ${op}` });
      return z.NEVER;
    }
    const schema =
      op === 'one_of'
        ? z
            .array(scalarValue, 'must be a list of values for one_of')
            .min(1, 'must list at least one value')
            .max(MAX_ONE_OF_VALUES, `must list at most ${MAX_ONE_OF_VALUES} values`)
        : scalarValue;
    const value = schema.safeParse(given.value);
    if (!value.success) {
      for (const issue of value.error.issues)
        ctx.addIssue({ code: 'custom', path: ['value', ...issue.path], message: issue.message });
      return z.NEVER;
    }
    return { field, op, value: value.data };
  });

export const conditionsSchema = z.object(
  {
    match: z.enum(['all', 'any'], 'must be "all" or "any"').default('all'),
    rules: z
      .array(rule, 'must be a list of rules')
      .min(1, 'must have at least one rule (or set conditions to null)')
      .max(MAX_CONDITION_RULES, `must have at most ${MAX_CONDITION_RULES} rules`),
  },
  'must be an object {match, rules} or null',
);

/** zod issues under `prefix` as `prefix.path: message` (`conditions.rules.0.value: …`). */
export function problemsAt(prefix: string, error: z.ZodError): string[] {
  return error.issues.map(
    (issue) => `${[prefix, ...issue.path.map(String)].join('.')}: ${issue.message}`,
  );
}

/** Conditions as given (null or absent: none), checked; `conditions.…: message` problems. */
export function checkConditions(
  raw: unknown,
): { ok: true; conditions: Conditions | null } | { ok: false; errors: string[] } {
  if (raw === null || raw === undefined) return { ok: true, conditions: null };
  const parsed = conditionsSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, conditions: parsed.data }
    : { ok: false, errors: problemsAt('conditions', parsed.error) };
}

/** A submitted value as the texts it compares as (a list is each of its items). */
function textsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value as string);
  const folded = comparable(text);
  return folded === '' ? [] : [folded];
}

const comparable = (text: string) => text.trim().normalize('NFC').toLowerCase();

/** Whether one rule holds for a payload. */
export function ruleMatches(rule: ConditionRule, payload: Record<string, unknown>): boolean {
  const texts = Object.hasOwn(payload, rule.field) ? textsOf(payload[rule.field]) : [];
  const wanted = (Array.isArray(rule.value) ? rule.value : [rule.value ?? '']).map(comparable);
  switch (rule.op) {
    case 'is_empty':
      return texts.length === 0;
    case 'not_empty':
      return texts.length > 0;
    case 'equals':
    case 'one_of':
      return texts.some((text) => wanted.includes(text));
    case 'not_equals':
      return !texts.some((text) => wanted.includes(text));
    case 'contains':
      return texts.some((text) => text.includes(wanted[0]!));
    case 'not_contains':
      return !texts.some((text) => text.includes(wanted[0]!));
  }
}

/** Whether a submission is sent to a plugin with these conditions (null: always). */
export function conditionsMatch(
  conditions: Conditions | null | undefined,
  payload: Record<string, unknown>,
): boolean {
  if (!conditions || !Array.isArray(conditions.rules) || conditions.rules.length === 0) return true;
  return conditions.match === 'any'
    ? conditions.rules.some((r) => ruleMatches(r, payload))
    : conditions.rules.every((r) => ruleMatches(r, payload));
}
