import { z } from 'zod';
import { MAX_SHEET_NAME_CHARS, sheetNameProblem, spreadsheetIdOf } from './a1-notation';
import { parseServiceAccountKey } from './service-account-key';
import { definePluginType, schemaCheck } from '../plugin-type';
import { googleSheetsDelivery } from './delivery';

export const DEFAULT_SHEET_NAME = 'Sheet1';

/**
 * The config as given: the key file's text, the spreadsheet (id or address) and the sheet.
 * Stored: the key (only what signing needs) sealed, and beside it its `client_email`, the
 * address the spreadsheet must be shared with, which pages show to whoever may see the plugin.
 */
export const googleSheetsConfig = z
  .object({
    service_account_key: z
      .string({ error: 'paste the JSON key file of a service account' })
      .transform((text, ctx) => {
        const parsed = parseServiceAccountKey(text);
        if (parsed.ok) return parsed.key;
        ctx.addIssue({ code: 'custom', message: parsed.problem });
        return z.NEVER;
      }),
    spreadsheet_id: z
      .string({ error: 'the spreadsheet id or address is required' })
      .transform((text, ctx) => {
        const id = spreadsheetIdOf(text);
        if (id) return id;
        ctx.addIssue({
          code: 'custom',
          message:
            'must be a spreadsheet id or its address (https://docs.google.com/spreadsheets/d/…)',
        });
        return z.NEVER;
      }),
    sheet_name: z
      .string({ error: `must be text of at most ${MAX_SHEET_NAME_CHARS} characters` })
      .transform((text, ctx) => {
        const name = text === '' ? DEFAULT_SHEET_NAME : text;
        const problem = sheetNameProblem(name);
        if (!problem) return name;
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      })
      .default(DEFAULT_SHEET_NAME),
  })
  .transform(({ service_account_key: key, ...rest }) => ({
    service_account_key: JSON.stringify(key),
    client_email: key.client_email,
    ...rest,
  }));

/** A stored config (the key opened): what googleSheetsConfig gave. */
const storedSheetsConfig = z.object({
  service_account_key: z.string(),
  client_email: z.string(),
  spreadsheet_id: z.string(),
  sheet_name: z.string(),
});

/** One row per submission in a sheet the service account may edit (docs/plugins.md). */
export const googleSheetsType = definePluginType<z.output<typeof storedSheetsConfig>>({
  key: 'google_sheets',
  label: 'Google Sheets',
  noun: 'a Google Sheets spreadsheet',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'service_account_key',
      label: 'Service-account key (the JSON file from Google Cloud, pasted whole)',
      input: 'secret-textarea',
      required: true,
      placeholder: '{"type": "service_account", "client_email": "…", "private_key": "…", …}',
      hint: 'Stored sealed and never shown again. Share the spreadsheet with the key’s client_email as an editor.',
    },
    {
      name: 'spreadsheet_id',
      label: 'Spreadsheet id or address',
      input: 'text',
      required: true,
      placeholder: 'https://docs.google.com/spreadsheets/d/…/edit',
    },
    {
      name: 'sheet_name',
      label: `Sheet (tab) name, default ${DEFAULT_SHEET_NAME}`,
      input: 'text',
      required: false,
      placeholder: DEFAULT_SHEET_NAME,
    },
  ],
  config: storedSheetsConfig,
  check: schemaCheck(googleSheetsConfig),
  sealed: ['service_account_key'],
  // The address to share with and where rows go grant nothing without the key.
  redacted: { keep: ['client_email', 'spreadsheet_id', 'sheet_name'], origin: [] },
  defaultName: (config) => `Google Sheets ${config.spreadsheet_id.slice(0, 12)}…`,
  summary: (visible) =>
    `sheet ${JSON.stringify(visible.sheet_name ?? DEFAULT_SHEET_NAME)} of spreadsheet ${String(
      visible.spreadsheet_id ?? '(hidden)',
    )}, as ${String(visible.client_email ?? '(hidden)')}`,
  // Columns only for the form's own field names: read with the plugin and the submission.
  reads: { formFieldNames: true },
  delivery: googleSheetsDelivery,
});
