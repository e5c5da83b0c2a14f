import { z } from 'zod';
import { definePluginType, schemaCheck } from '../plugin-type';
import { airtableDelivery } from './delivery';

/*
 * Airtable: one record per submission in a table of a base (docs/plugins.md, "airtable"),
 * through a personal access token with the `data.records:write` scope on that base.
 */

const BASE_ID = /\bapp[A-Za-z0-9]{14}\b/;
const TABLE_ID = /\btbl[A-Za-z0-9]{14}\b/;
/** `pat` + 14 characters, a dot, 64 hex today: checked loosely, so a longer format still passes. */
const TOKEN = /^pat[A-Za-z0-9]{8,}\.[A-Za-z0-9]{16,}$/;
/** Airtable's own limit on a table's name. */
const MAX_TABLE_NAME = 255;

/** An `https://airtable.com/app…/tbl…/viw…` address someone pasted, or null. */
function airtableUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return /(^|\.)airtable\.com$/.test(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/** The base and table a pasted Airtable address names (the table's id only when it has one). */
export function idsInAirtableUrl(text: string): { base?: string; table?: string } {
  const url = airtableUrl(text.trim());
  if (!url) return {};
  return { base: BASE_ID.exec(url.pathname)?.[0], table: TABLE_ID.exec(url.pathname)?.[0] };
}

const text = z.string({ error: 'is required' }).trim();

/** The config as given: a pasted base URL may also name the table. */
export const airtableConfig = z
  .object({
    token: text
      .min(1, 'is required (a personal access token, pat…)')
      .max(300, 'is too long for a personal access token')
      .refine(
        (token) => !/^key[A-Za-z0-9]{14}$/.test(token),
        'is an Airtable API key, which Airtable retired: create a personal access token (pat…)',
      )
      .refine((token) => TOKEN.test(token), 'must be a personal access token (it starts with pat)'),
    base: text.min(1, 'is required (the base id, app…, or its address)'),
    table: text.max(2_000).optional(),
  })
  .transform((given, ctx) => {
    const fromBase = idsInAirtableUrl(given.base);
    const base = fromBase.base ?? given.base;
    if (!/^app[A-Za-z0-9]{14}$/.test(base)) {
      ctx.addIssue({
        code: 'custom',
        path: ['base'],
        message: 'must be a base id (app followed by 14 letters and digits) or the base’s address',
      });
      return z.NEVER;
    }
    const table = idsInAirtableUrl(given.table ?? '').table ?? (given.table || fromBase.table);
    if (!table) {
      ctx.addIssue({
        code: 'custom',
        path: ['table'],
        message: 'is required (the table’s name, its id tbl…, or its address)',
      });
      return z.NEVER;
    }
    if (
      table.length > MAX_TABLE_NAME ||
      [...table].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['table'],
        message: `must be a table name of at most ${MAX_TABLE_NAME} characters on one line, or an id tbl…`,
      });
      return z.NEVER;
    }
    return { token: given.token, base, table };
  });
export type AirtableConfig = z.output<typeof airtableConfig>;

/** A stored config (the token opened): what airtableConfig gave. */
const storedAirtableConfig = z.object({ token: z.string(), base: z.string(), table: z.string() });

/** One record per submission in an Airtable table (src/plugins/airtable/delivery.ts). */
export const airtableType = definePluginType<AirtableConfig>({
  key: 'airtable',
  label: 'Airtable',
  noun: 'an Airtable table',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'token',
      label: 'Personal access token (scope data.records:write, access to the base)',
      input: 'secret',
      required: true,
      placeholder: 'pat…',
      hint: 'Stored sealed and never shown again.',
    },
    {
      name: 'base',
      label: 'Base id or the table’s address',
      input: 'text',
      required: true,
      placeholder: 'appXXXXXXXXXXXXXX or https://airtable.com/app…/tbl…',
    },
    {
      name: 'table',
      label: 'Table name or id (optional when the address names it)',
      input: 'text',
      required: false,
      placeholder: 'Submissions or tblXXXXXXXXXXXXXX',
      hint: 'The table needs a column for each field it is sent, plus “Submission ID” and “Received at”.',
    },
  ],
  config: storedAirtableConfig,
  check: schemaCheck(airtableConfig),
  sealed: ['token'],
  // A base and table id grant nothing without the token.
  redacted: { keep: ['base', 'table'], origin: [] },
  defaultName: (config) => `Airtable table ${config.table}`,
  summary: (visible) =>
    visible.base ? `Airtable base ${String(visible.base)}, table ${String(visible.table)}` : '',
  delivery: airtableDelivery,
});
