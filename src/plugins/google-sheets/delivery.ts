import { Context } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tryLockSheetHeader } from '../../db/sql/plugin-locks';
import { AccessTokenCache } from './google-access-tokens';
import type { ServiceAccountKey } from './service-account-key';
import { alignedRow, columnNames, missingColumns } from './sheet-rows';
import { GoogleSheetsClient, SheetsFailure } from './sheets-api';
import type { AttemptResult, DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';

/** How long an attempt waits for another delivery to this plugin that is adding columns. */
const HEADER_LOCK_WAIT_MS = 15_000;
const HEADER_LOCK_POLL_MS = 100;

/**
 * Runs `step` holding the plugin's header lock (a PostgreSQL advisory lock, so every worker
 * process agrees). Waiting holds no connection: each try is its own short transaction, and
 * only the holder keeps one, for the few requests that add columns.
 */
async function withHeaderLock<T>(em: EntityManager, pluginId: string, step: () => Promise<T>) {
  const context = Context.current();
  const deadline = Date.now() + HEADER_LOCK_WAIT_MS;
  for (;;) {
    const outcome = await em
      .fork()
      .transactional(async (tx) =>
        (await tryLockSheetHeader(tx, pluginId)) ? { value: await step() } : null,
      );
    if (outcome) return outcome.value;
    if (Date.now() > deadline)
      throw new SheetsFailure(
        {
          ok: false,
          statusCode: null,
          responseBody: null,
          error: 'another delivery to this spreadsheet was adding columns for too long',
          failure: 'network',
          durationMs: HEADER_LOCK_WAIT_MS,
        },
        false,
      );
    if (!context.info.isLocal) context.heartbeat();
    await context.sleep(HEADER_LOCK_POLL_MS);
  }
}

/**
 * The header as it must be for this submission: read, and when a field has no column yet,
 * read again under the lock and the missing names written at its end. Columns are only ever
 * added at the end, so a row aligned to the header read here stays aligned whatever
 * deliveries add columns after it.
 */
async function headerFor(
  em: EntityManager,
  client: GoogleSheetsClient,
  pluginId: string,
  payload: Record<string, unknown>,
  columns: readonly string[],
): Promise<string[]> {
  const header = await client.readHeader();
  if (missingColumns(header, payload, columns).length === 0) return header;
  return withHeaderLock(em, pluginId, async () => {
    const current = await client.readHeader();
    const missing = missingColumns(current, payload, columns);
    if (missing.length === 0) return current;
    await client.ensureColumns(current.length + missing.length);
    await client.writeHeaderCells(current.length + 1, missing);
    return [...current, ...missing];
  });
}

/** What an attempt reads of the stored config (declaration.ts), the key opened. */
type SheetTarget = { service_account_key: string; spreadsheet_id: string; sheet_name: string };

/**
 * One attempt of a Google Sheets plugin (docs/plugins.md): the submission as one row of its
 * sheet, under a header of field names, with the policy of workflows/delivery-kinds.ts.
 * Access tokens live in this worker's memory, per plugin and key.
 */
export function googleSheetsDelivery(deps: PluginDeliveryDeps): DeliverAttempt<SheetTarget> {
  const tokens = new AccessTokenCache();
  return async ({ em, plugin, config, source, formFieldNames }) => {
    const keyText = config.service_account_key;
    const client = new GoogleSheetsClient(
      (request) => sendWithHeartbeat(deps.sender, request),
      tokens,
      deps.providerUrls,
      {
        pluginId: plugin.id,
        key: JSON.parse(keyText) as ServiceAccountKey,
        keyText,
        spreadsheetId: config.spreadsheet_id,
        sheetName: config.sheet_name,
      },
    );
    const startedAt = Date.now();
    let result: AttemptResult;
    let permanent = false;
    try {
      // Only known names get a column; a submitter's other names share `extra`.
      const columns = columnNames(formFieldNames, plugin.includeFields);
      const header = await headerFor(em, client, plugin.id, source.payload, columns);
      const row = alignedRow(
        header,
        { id: source.submissionId, receivedAt: source.createdAt, payload: source.payload },
        columns,
      );
      result = await client.appendRow(row);
    } catch (error) {
      if (!(error instanceof SheetsFailure)) throw error;
      ({ result, permanent } = error);
    }
    result = { ...result, durationMs: Date.now() - startedAt };
    return { result, permanent, delivered: 'row appended' };
  };
}
