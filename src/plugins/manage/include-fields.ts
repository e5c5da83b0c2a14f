import { z } from 'zod';
import { fieldName, problemsAt } from './conditions';

/*
 * A plugin's field choice (docs/plugins.md, "Choosing fields"): the names of the submitted
 * fields it is sent, exactly as posted (case-sensitive); null sends every field. The delivery
 * attempt filters the payload before any type builds its body (src/plugins/delivery/load-deliverable.ts,
 * loadDeliverable), so a webhook's `data`, a mail's body and a chat message hold only those.
 */

export const MAX_INCLUDE_FIELDS = 100;

export const includeFieldsSchema = z
  .array(fieldName, 'must be a list of field names or null')
  .min(1, 'must name at least one field (or be null for all)')
  .max(MAX_INCLUDE_FIELDS, `must name at most ${MAX_INCLUDE_FIELDS} fields`)
  .transform((names) => [...new Set(names)]);

/** `include_fields` as given (null or absent: all), checked; `include_fields…: message`. */
export function checkIncludeFields(
  raw: unknown,
): { ok: true; includeFields: string[] | null } | { ok: false; errors: string[] } {
  if (raw === null || raw === undefined) return { ok: true, includeFields: null };
  const parsed = includeFieldsSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, includeFields: parsed.data }
    : { ok: false, errors: problemsAt('include_fields', parsed.error) };
}

/** The payload with only the chosen fields (all when null); a chosen field not posted is absent. */
export function pickFields(
  payload: Record<string, unknown>,
  includeFields: readonly string[] | null | undefined,
): Record<string, unknown> {
  if (!includeFields) return payload;
  const picked: Record<string, unknown> = {};
  for (const name of includeFields) if (Object.hasOwn(payload, name)) picked[name] = payload[name];
  return picked;
}
