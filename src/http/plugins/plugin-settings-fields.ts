import type { Request } from 'express';
import type { Plugin } from '../../domain/entities';
import {
  CONDITION_OPS,
  MAX_CONDITION_RULES,
  type Conditions,
} from '../../plugins/manage/conditions';
import { SECRET_MASK } from '../../plugins/manage/plugin-secrets';
import { headersOf, MAX_WEBHOOK_HEADERS } from '../../plugins/webhook/webhook-headers';

/*
 * The plugin settings page's form (plugins/plugin-settings-pages.ts) as it is typed and shown: rule
 * rows `rule_N_field` / `rule_N_op` / `rule_N_value` (a `one_of` value separated by commas),
 * `include` checkboxes and `include_extra` text, webhook header rows `header_N_name` /
 * `header_N_value` (a blank value keeps the stored one).
 */

export type RuleRow = { field: string; op: string; value: string };
export type HeaderRow = { name: string; value: string };

export type PluginSettingsInput = {
  match: 'all' | 'any';
  rules: RuleRow[];
  include: string[];
  includeExtra: string;
  headers: HeaderRow[];
};

/** Blank rule rows offered below the set ones, and blank header rows. */
const SPARE_RULES = 3;
const SPARE_HEADERS = 2;

const field = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value : '';
};

const listOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

const splitNames = (text: string) =>
  text
    .split(/[,;\n]+/)
    .map((name) => name.trim())
    .filter(Boolean);

/** What the form posted, as typed (for showing again with errors). */
export function readSettingsInput(req: Request): PluginSettingsInput {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const rules: RuleRow[] = [];
  for (let i = 0; i < MAX_CONDITION_RULES + SPARE_RULES; i++) {
    const row = {
      field: field(body, `rule_${i}_field`).trim(),
      op: field(body, `rule_${i}_op`),
      value: field(body, `rule_${i}_value`),
    };
    if (row.field !== '') rules.push(row);
  }
  const headers: HeaderRow[] = [];
  for (let i = 0; i < MAX_WEBHOOK_HEADERS + SPARE_HEADERS; i++) {
    const row = {
      name: field(body, `header_${i}_name`).trim(),
      value: field(body, `header_${i}_value`),
    };
    if (row.name !== '') headers.push(row);
  }
  return {
    match: field(body, 'match') === 'any' ? 'any' : 'all',
    rules,
    include: listOf(body.include),
    includeExtra: field(body, 'include_extra'),
    headers,
  };
}

/** The raw settings the use case checks (update-plugin.ts): no rule or field means null. */
export function settingsOf(input: PluginSettingsInput, webhook: boolean) {
  const conditions =
    input.rules.length === 0
      ? null
      : {
          match: input.match,
          rules: input.rules.map((rule) => {
            const op = rule.op as (typeof CONDITION_OPS)[number];
            if (op === 'is_empty' || op === 'not_empty') return { field: rule.field, op };
            const value = op === 'one_of' ? splitNames(rule.value) : rule.value;
            return { field: rule.field, op: rule.op, value };
          }),
        };
  const names = [...input.include, ...splitNames(input.includeExtra)];
  return {
    conditions,
    includeFields: names.length === 0 ? null : names,
    // A blank value (the masked one shown) keeps the stored value.
    headers: webhook
      ? input.headers.map((h) => (h.value === '' || h.value === SECRET_MASK ? { name: h.name } : h))
      : undefined,
  };
}

/** The stored settings as the form shows them; header values masked, names only to managers. */
export function storedSettingsInput(plugin: Plugin, seesHeaders: boolean): PluginSettingsInput {
  const conditions = plugin.conditions as Conditions | null | undefined;
  return {
    match: conditions?.match ?? 'all',
    rules: (conditions?.rules ?? []).map((rule) => ({
      field: rule.field,
      op: rule.op,
      value: Array.isArray(rule.value) ? rule.value.join(', ') : (rule.value ?? ''),
    })),
    include: plugin.includeFields ?? [],
    includeExtra: '',
    headers: seesHeaders
      ? headersOf(plugin.config).map((h) => ({ name: h.name, value: SECRET_MASK }))
      : [],
  };
}

/** Rows for the template: the set ones, then blank ones up to the bounds. */
export function withSpareRows(input: PluginSettingsInput): PluginSettingsInput {
  const rules = [...input.rules];
  const ruleRows = Math.min(MAX_CONDITION_RULES, rules.length + SPARE_RULES);
  while (rules.length < ruleRows) rules.push({ field: '', op: 'equals', value: '' });
  const headers = [...input.headers];
  const headerRows = Math.min(MAX_WEBHOOK_HEADERS, headers.length + SPARE_HEADERS);
  while (headers.length < headerRows) headers.push({ name: '', value: '' });
  return { ...input, rules, headers };
}
