import { z } from 'zod';
import { definePluginType, schemaCheck } from '../plugin-type';
import { notionDelivery } from './delivery';

/*
 * Notion: one page per submission in a database shared with an internal integration
 * (docs/plugins.md, "notion").
 */

/** `secret_…` (older integrations) or `ntn_…`, then letters and digits: checked loosely. */
const TOKEN = /^(secret_|ntn_)[A-Za-z0-9]{20,}$/;
const HEX_ID = /^[0-9a-f]{32}$/;

/** `0123…cdef` or a UUID: the dashed form Notion's API answers with, or null. */
function databaseIdOf(text: string): string | null {
  const bare = text.replaceAll('-', '').toLowerCase();
  if (!HEX_ID.test(bare)) return null;
  return [0, 8, 12, 16, 20].map((at, i, cuts) => bare.slice(at, cuts[i + 1])).join('-');
}

/**
 * The database id in what was pasted: the id itself, or a database's address
 * (`https://www.notion.so/team/Leads-0123…cdef?v=…`, where the id ends the path and `v` is a
 * view's id, not the database's).
 */
export function notionDatabaseId(given: string): string | null {
  const text = given.trim();
  const direct = databaseIdOf(text);
  if (direct) return direct;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!/(^|\.)(notion\.so|notion\.site|notion\.com)$/.test(url.hostname)) return null;
  const last = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  const id = /([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(
    last,
  );
  return id ? databaseIdOf(id[1]!) : null;
}

const text = z.string({ error: 'is required' }).trim();

export const notionConfig = z.object({
  token: text
    .min(1, 'is required (the integration’s secret, ntn_… or secret_…)')
    .max(300, 'is too long for an integration secret')
    .refine((token) => TOKEN.test(token), 'must be an integration secret (ntn_… or secret_…)'),
  database: text
    .min(1, 'is required (the database’s id or its address)')
    .transform((given, ctx) => {
      const id = notionDatabaseId(given);
      if (id) return id;
      ctx.addIssue({
        code: 'custom',
        message: 'must be a database id (32 hexadecimal digits) or the database’s address',
      });
      return z.NEVER;
    }),
});
export type NotionConfig = z.output<typeof notionConfig>;

/** One page per submission in a Notion database (src/plugins/notion/delivery.ts). */
export const notionType = definePluginType<NotionConfig>({
  key: 'notion',
  label: 'Notion',
  noun: 'a Notion database',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'token',
      label: 'Internal integration secret (capabilities: read and insert content)',
      input: 'secret',
      required: true,
      placeholder: 'ntn_…',
      hint: 'Stored sealed and never shown again.',
    },
    {
      name: 'database',
      label: 'Database id or address',
      input: 'text',
      required: true,
      placeholder: 'https://www.notion.so/…/Leads-0123456789abcdef0123456789abcdef?v=…',
      hint: 'Share the database with the integration (••• → Connections). Fields named like a property fill it; the others go into the page.',
    },
  ],
  config: z.object({ token: z.string(), database: z.string() }),
  check: schemaCheck(notionConfig),
  sealed: ['token'],
  // A database id grants nothing without the token.
  redacted: { keep: ['database'], origin: [] },
  defaultName: (config) => `Notion database ${config.database.slice(0, 8)}`,
  summary: (visible) => (visible.database ? `Notion database ${String(visible.database)}` : ''),
  delivery: notionDelivery,
});
