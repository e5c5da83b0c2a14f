import { checkConditions } from './conditions';
import { checkIncludeFields } from './include-fields';
import type { PluginRouting } from './plugins';

/** `conditions` and `include_fields` as a request gives them: absent (undefined) changes nothing. */
export type RoutingInput = { conditions?: unknown; includeFields?: unknown };

/**
 * The routing a create or an update asks for, checked (null clears a setting; an absent one
 * is left out), or every `conditions…` / `include_fields…` problem at once.
 */
export function checkPluginRouting(
  input: RoutingInput,
): { ok: true; routing: Partial<PluginRouting> } | { ok: false; errors: string[] } {
  const routing: Partial<PluginRouting> = {};
  const errors: string[] = [];
  if (input.conditions !== undefined) {
    const checked = checkConditions(input.conditions);
    if (checked.ok) routing.conditions = checked.conditions;
    else errors.push(...checked.errors);
  }
  if (input.includeFields !== undefined) {
    const checked = checkIncludeFields(input.includeFields);
    if (checked.ok) routing.includeFields = checked.includeFields;
    else errors.push(...checked.errors);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, routing };
}
