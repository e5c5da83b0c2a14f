import type { SendResult, OutboundSender } from '../../outbound/sender';
import { STORED_RESPONSE_BYTES } from '../../outbound/sender';
import { AccessTokenCache, requestAccessToken, type TokenAnswer } from './google-access-tokens';
import type { ServiceAccountKey } from './service-account-key';
import { headerCellRange, headerRowRange, sheetRange } from './a1-notation';
import type { CellValue } from './sheet-rows';
import type { AttemptResult } from '../delivery/attempt';

/*
 * The Google requests of one Sheets delivery attempt (docs/plugins.md), each through the
 * guarded sender: the access token (cached per plugin and key), the header row, the grid's
 * width, the header's new cells and the appended row. A refusal becomes a SheetsFailure whose
 * error a person can act on; no token or key ever goes into it.
 */

/** One request through the guarded sender (sendWithHeartbeat in an activity). */
export type Send = (request: Parameters<OutboundSender['send']>[0]) => Promise<SendResult>;

/** An answer this client parses may be longer than what is stored: a header row of long names. */
const READ_BYTES = 256 * 1024;

/** A Sheets step that did not succeed: what to record, and whether retrying can help. */
export class SheetsFailure extends Error {
  constructor(
    readonly result: AttemptResult,
    readonly permanent: boolean,
  ) {
    super(result.error ?? 'Google Sheets delivery failed');
  }
}

export type SheetsTarget = {
  pluginId: string;
  key: ServiceAccountKey;
  /** The key as stored: its digest keys the token cache. */
  keyText: string;
  spreadsheetId: string;
  sheetName: string;
};

type GoogleError = { message: string; status: string };

/** Google's `{"error": {...}}` (Sheets) or `{"error", "error_description"}` (OAuth). */
function googleError(body: string | null): GoogleError {
  try {
    const parsed = JSON.parse(body ?? '') as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === 'object' && parsed.error !== null) {
      const error = parsed.error as { message?: unknown; status?: unknown };
      return {
        message: String(error.message ?? '').slice(0, 300),
        status: String(error.status ?? ''),
      };
    }
    if (typeof parsed.error === 'string')
      return {
        status: parsed.error.slice(0, 60),
        message: String(parsed.error_description ?? '').slice(0, 300),
      };
  } catch {
    // not JSON: the status code says it all
  }
  return { message: '', status: '' };
}

/** The answer as stored: Google's error or result, cut like any stored answer. */
const stored = (result: SendResult): AttemptResult => ({
  ...result,
  responseBody: result.responseBody?.slice(0, STORED_RESPONSE_BYTES) ?? null,
});

/** A failure of the sender itself (address refused, timeout, network): as it said. */
function transportFailure(result: SendResult): SheetsFailure {
  return new SheetsFailure(stored(result), result.failure === 'blocked_address');
}

export class GoogleSheetsClient {
  private readonly cacheKey: string;

  constructor(
    private readonly send: Send,
    private readonly tokens: AccessTokenCache,
    private readonly urls: { googleOAuthToken: string; googleSheets: string },
    private readonly target: SheetsTarget,
  ) {
    this.cacheKey = AccessTokenCache.keyOf(target.pluginId, target.keyText, urls.googleOAuthToken);
  }

  /** The header row's cells as text ([] for an empty sheet). */
  async readHeader(): Promise<string[]> {
    const range = encodeURIComponent(headerRowRange(this.target.sheetName));
    const answer = await this.call('GET', `/values/${range}?majorDimension=ROWS`, null);
    const values = (answer as { values?: unknown[][] }).values?.[0] ?? [];
    return values.map((cell) => String(cell ?? ''));
  }

  /** Widens the sheet to `columns` when it has fewer (a new sheet has 26). */
  async ensureColumns(columns: number): Promise<void> {
    const fields = encodeURIComponent(
      'sheets.properties(sheetId,title,gridProperties(columnCount))',
    );
    const answer = (await this.call('GET', `?fields=${fields}`, null)) as {
      sheets?: Array<{
        properties?: {
          sheetId?: number;
          title?: string;
          gridProperties?: { columnCount?: number };
        };
      }>;
    };
    const sheet = answer.sheets?.find(
      (s) => s.properties?.title === this.target.sheetName,
    )?.properties;
    if (!sheet || sheet.sheetId === undefined)
      throw this.refusal(
        400,
        `there is no sheet named "${this.target.sheetName}" in the spreadsheet`,
      );
    const has = sheet.gridProperties?.columnCount ?? 0;
    if (has >= columns) return;
    await this.call('POST', ':batchUpdate', {
      requests: [
        {
          appendDimension: { sheetId: sheet.sheetId, dimension: 'COLUMNS', length: columns - has },
        },
      ],
    });
  }

  /** Writes `names` into the header from the 1-based column `fromColumn` on, as plain text. */
  async writeHeaderCells(fromColumn: number, names: string[]): Promise<void> {
    const range = headerCellRange(this.target.sheetName, fromColumn);
    await this.call('PUT', `/values/${encodeURIComponent(range)}?valueInputOption=RAW`, {
      range,
      majorDimension: 'ROWS',
      values: [names],
    });
  }

  /**
   * Appends one row below the table, as plain text (RAW: a value starting with `=` stays
   * text, never a formula), inserting a row so nothing below is overwritten.
   */
  async appendRow(row: CellValue[]): Promise<AttemptResult> {
    const range = encodeURIComponent(sheetRange(this.target.sheetName));
    const result = await this.request(
      'POST',
      `/values/${range}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
      { majorDimension: 'ROWS', values: [row] },
    );
    return stored(result);
  }

  private async call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: unknown,
  ): Promise<unknown> {
    const result = await this.request(method, path, body);
    try {
      return JSON.parse(result.responseBody ?? '');
    } catch {
      const cut = (result.responseBody?.length ?? 0) >= READ_BYTES;
      throw this.refusal(
        result.statusCode ?? 200,
        cut
          ? `Google Sheets' answer was longer than ${READ_BYTES / 1024} KB (a header row too long to read)`
          : 'Google Sheets answered with something that is not JSON',
        false,
      );
    }
  }

  /** A request with the access token; throws a SheetsFailure unless it succeeded. */
  private async request(method: 'GET' | 'POST' | 'PUT', path: string, body: unknown) {
    const token = await this.accessToken();
    const result = await this.send({
      url: `${this.urls.googleSheets}/v4/spreadsheets/${this.target.spreadsheetId}${path}`,
      method,
      body: body === null ? '' : JSON.stringify(body),
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'Formward-Webhooks/1',
      },
      maxResponseBytes: READ_BYTES,
    });
    if (result.ok) return result;
    if (result.failure !== 'http_status') throw transportFailure(result);
    throw this.sheetsRefusal(result);
  }

  private async accessToken(): Promise<string> {
    const cached = this.tokens.get(this.cacheKey);
    if (cached) return cached;
    const answer = await requestAccessToken(this.target.key, (formBody) => this.exchange(formBody));
    if (typeof answer.access_token !== 'string' || answer.access_token === '')
      throw this.refusal(200, "Google's token endpoint answered without an access token", false);
    const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    this.tokens.set(this.cacheKey, answer.access_token, expiresIn);
    return answer.access_token;
  }

  /** The token request through the guarded sender; its answer is never stored (it is the token). */
  private async exchange(formBody: string): Promise<TokenAnswer> {
    const result = await this.send({
      url: this.urls.googleOAuthToken,
      method: 'POST',
      body: formBody,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Formward-Webhooks/1',
      },
    });
    if (result.ok) {
      try {
        return JSON.parse(result.responseBody ?? '') as TokenAnswer;
      } catch {
        return {};
      }
    }
    if (result.failure !== 'http_status') throw transportFailure({ ...result, responseBody: null });
    const status = result.statusCode ?? 0;
    const google = googleError(result.responseBody);
    const said = google.status
      ? ` (${google.status}${google.message ? `: ${google.message}` : ''})`
      : '';
    const refused = status === 400 || status === 401 || status === 403;
    throw new SheetsFailure(
      {
        ...result,
        responseBody: null,
        error: refused
          ? `Google refused the service-account key of ${this.target.key.client_email}${said}; the key may have been deleted or disabled`
          : `Google's token endpoint answered ${status}${said}`,
      },
      refused,
    );
  }

  /** Google Sheets' refusal in words, and whether it is for good. */
  private sheetsRefusal(result: SendResult): SheetsFailure {
    const status = result.statusCode ?? 0;
    const { message } = googleError(result.responseBody);
    const google = message ? ` (Google: ${message})` : '';
    const { spreadsheetId, sheetName, key } = this.target;
    const fail = (error: string, permanent: boolean) =>
      new SheetsFailure({ ...stored(result), error }, permanent);
    if (status === 401) {
      this.tokens.drop(this.cacheKey);
      return fail(
        `Google Sheets did not accept the access token (401); the next attempt gets a new one${google}`,
        false,
      );
    }
    if (status === 403)
      return /has not been used|is disabled|SERVICE_DISABLED/i.test(message)
        ? fail(
            `the Google Sheets API is not enabled in the project of ${key.client_email}${google}`,
            true,
          )
        : fail(
            `the spreadsheet ${spreadsheetId} is not shared with ${key.client_email}: share it with that address as an editor${google}`,
            true,
          );
    if (status === 404)
      return fail(`there is no spreadsheet ${spreadsheetId}, or it was deleted${google}`, true);
    if (status === 400)
      return /Unable to parse range/i.test(message)
        ? fail(`there is no sheet named "${sheetName}" in the spreadsheet${google}`, true)
        : fail(`Google Sheets refused the request (400)${google}`, true);
    if (status === 429) return fail(`Google Sheets' quota was exceeded (429)${google}`, false);
    return fail(`Google Sheets answered ${status}${google}`, false);
  }

  private refusal(status: number, error: string, permanent = true): SheetsFailure {
    return new SheetsFailure(
      {
        ok: false,
        statusCode: status,
        responseBody: null,
        error,
        failure: 'http_status',
        durationMs: 0,
      },
      permanent,
    );
  }
}
