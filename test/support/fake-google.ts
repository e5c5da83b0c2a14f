import { createPublicKey, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestCertificates } from './test-ca';

// Shared by test suites: no test-runner imports here.

/*
 * Google's OAuth token endpoint and Sheets API v4 as their documentation describes them, on a
 * real HTTPS server on 127.0.0.1 (test CA): the token endpoint checks the JWT-bearer
 * assertion's RS256 signature with the service account's public key, Sheets checks the bearer
 * token and that the spreadsheet is shared with its account, and keeps every sheet's rows.
 */

export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

export type FakeRequest = {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
};

export type ForcedReply = { status: number; headers?: Record<string, string>; body?: unknown };

type Cell = string | number | boolean;
type Sheet = { sheetId: number; columnCount: number; rows: Cell[][] };
type Spreadsheet = { sheets: Map<string, Sheet>; sharedWith: Set<string> };

/** A key pair and the key file Google would give for it. */
export function createServiceAccountKey(clientEmail: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = {
    type: 'service_account',
    project_id: 'formward-test',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '1234567890',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: TOKEN_AUDIENCE,
  };
  return {
    file,
    json: JSON.stringify(file, null, 2),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const sheetsError = (status: number, code: string, message: string): ForcedReply => ({
  status,
  body: { error: { code: status, message, status: code } },
});

function parseRange(text: string): { sheet: string; cells: string } | null {
  const quoted = /^'((?:[^']|'')+)'(?:!(.*))?$/.exec(text);
  if (quoted) return { sheet: quoted[1]!.replaceAll("''", "'"), cells: quoted[2] ?? '' };
  const plain = /^([^!']+)(?:!(.*))?$/.exec(text);
  return plain ? { sheet: plain[1]!, cells: plain[2] ?? '' } : null;
}

function columnNumber(letters: string): number {
  return [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

function base64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export async function startFakeGoogle(
  certificates: TestCertificates,
  options: { latencyMs?: number } = {},
) {
  const accounts = new Map<string, string>(); // client_email → public key PEM
  const tokens = new Map<string, { email: string; expiresAt: number }>();
  const spreadsheets = new Map<string, Spreadsheet>();
  const requests: FakeRequest[] = [];
  const forcedToken: ForcedReply[] = [];
  const forcedSheets: ForcedReply[] = [];

  function tokenAnswer(body: string): ForcedReply {
    const forced = forcedToken.shift();
    if (forced) return forced;
    const form = new URLSearchParams(body);
    const invalid = (description: string): ForcedReply => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: description },
    });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' },
      };
    const [header, payload, signature] = (form.get('assertion') ?? '').split('.');
    if (!header || !payload || !signature) return invalid('Invalid JWT.');
    const claims = base64urlJson(payload);
    if (base64urlJson(header).alg !== 'RS256')
      return invalid('Invalid JWT: unsupported algorithm.');
    const publicKey = accounts.get(String(claims.iss));
    if (!publicKey) return invalid('Invalid grant: account not found');
    const valid = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(createPublicKey(publicKey), Buffer.from(signature, 'base64url'));
    if (!valid) return invalid('Invalid JWT Signature.');
    const now = Math.floor(Date.now() / 1000);
    if (claims.aud !== TOKEN_AUDIENCE) return invalid('Invalid JWT: Failed audience check.');
    if (
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number' ||
      claims.exp < now ||
      claims.exp - claims.iat > 3600
    )
      return invalid(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
      );
    if (
      !String(claims.scope ?? '')
        .split(' ')
        .includes(SHEETS_SCOPE)
    )
      return {
        status: 400,
        body: { error: 'invalid_scope', error_description: 'Invalid OAuth scope.' },
      };
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { email: String(claims.iss), expiresAt: Date.now() + 3600_000 });
    return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
  }

  function sheetsAnswer(
    method: string,
    url: URL,
    headers: IncomingHttpHeaders,
    body: string,
  ): ForcedReply {
    const forced = forcedSheets.shift();
    if (forced) return forced;
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const holder = bearer ? tokens.get(bearer) : undefined;
    if (!holder || holder.expiresAt < Date.now())
      return sheetsError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const match =
      /^\/v4\/spreadsheets\/([A-Za-z0-9_-]+)(?:(:batchUpdate)|\/values\/([^/]+?)(:append)?)?$/.exec(
        url.pathname,
      );
    if (!match) return sheetsError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const spreadsheet = spreadsheets.get(match[1]!);
    if (!spreadsheet) return sheetsError(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!spreadsheet.sharedWith.has(holder.email))
      return sheetsError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    const json = () => JSON.parse(body || '{}') as Record<string, unknown>;
    if (match[2]) {
      for (const request of (json().requests ?? []) as Array<{
        appendDimension?: { sheetId: number; dimension: string; length: number };
      }>) {
        const append = request.appendDimension;
        const sheet = [...spreadsheet.sheets.values()].find((s) => s.sheetId === append?.sheetId);
        if (!append || !sheet)
          return sheetsError(400, 'INVALID_ARGUMENT', 'Invalid requests[0]: No grid with id');
        if (append.dimension === 'COLUMNS') sheet.columnCount += append.length;
      }
      return { status: 200, body: { spreadsheetId: match[1], replies: [{}] } };
    }
    if (!match[3]) {
      if (method !== 'GET') return sheetsError(400, 'INVALID_ARGUMENT', 'Invalid method');
      return {
        status: 200,
        body: {
          sheets: [...spreadsheet.sheets].map(([title, s]) => ({
            properties: {
              sheetId: s.sheetId,
              title,
              gridProperties: { rowCount: 1000, columnCount: s.columnCount },
            },
          })),
        },
      };
    }
    const rangeText = decodeURIComponent(match[3]);
    const range = parseRange(rangeText);
    const sheet = range ? spreadsheet.sheets.get(range.sheet) : undefined;
    if (!range || !sheet)
      return sheetsError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${rangeText}`);
    const option = url.searchParams.get('valueInputOption');
    if (method === 'GET') {
      if (range.cells !== '1:1')
        return sheetsError(400, 'INVALID_ARGUMENT', 'the fake reads row 1 only');
      const row = sheet.rows[0] ?? [];
      return {
        status: 200,
        body: {
          range: rangeText,
          majorDimension: 'ROWS',
          ...(row.length > 0 && { values: [row] }),
        },
      };
    }
    if (option !== 'RAW' && option !== 'USER_ENTERED')
      return sheetsError(
        400,
        'INVALID_ARGUMENT',
        "'valueInputOption' is required but not specified",
      );
    const values = (json().values ?? []) as Cell[][];
    if (method === 'PUT') {
      const cell = /^([A-Z]+)1$/.exec(range.cells);
      if (!cell) return sheetsError(400, 'INVALID_ARGUMENT', 'the fake writes into row 1 only');
      const from = columnNumber(cell[1]!);
      const row = (sheet.rows[0] ??= []);
      const cells = values[0] ?? [];
      if (from - 1 + cells.length > sheet.columnCount)
        return sheetsError(
          400,
          'INVALID_ARGUMENT',
          `Range (${rangeText}) exceeds grid limits. Max rows: 1000, max columns: ${sheet.columnCount}`,
        );
      cells.forEach((value, i) => {
        while (row.length < from - 1 + i) row.push('');
        row[from - 1 + i] = value;
      });
      return {
        status: 200,
        body: { spreadsheetId: match[1], updatedRange: rangeText, updatedCells: cells.length },
      };
    }
    if (method === 'POST' && match[4]) {
      for (const row of values) {
        if (row.length > sheet.columnCount)
          return sheetsError(
            400,
            'INVALID_ARGUMENT',
            `Range exceeds grid limits. Max rows: 1000, max columns: ${sheet.columnCount}`,
          );
        sheet.rows.push([...row]);
      }
      const at = sheet.rows.length;
      return {
        status: 200,
        body: {
          spreadsheetId: match[1],
          updates: { updatedRange: `${rangeText}!A${at}`, updatedRows: values.length },
        },
      };
    }
    return sheetsError(400, 'INVALID_ARGUMENT', 'Invalid request');
  }

  const server = https.createServer(
    { key: fs.readFileSync(certificates.keyFile), cert: fs.readFileSync(certificates.certFile) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'https://127.0.0.1');
        requests.push({
          at: Date.now(),
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
        });
        const reply =
          url.pathname === '/token' && req.method === 'POST'
            ? tokenAnswer(body)
            : sheetsAnswer(req.method ?? '', url, req.headers, body);
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(reply.status, {
            'content-type': 'application/json; charset=UTF-8',
            ...reply.headers,
          });
          res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
        }, options.latencyMs ?? 0);
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let nextSheetId = 1;

  return {
    url,
    /** GOOGLE_OAUTH_TOKEN_URL and GOOGLE_SHEETS_API_URL for a stack that uses this fake. */
    env: { GOOGLE_OAUTH_TOKEN_URL: `${url}/token`, GOOGLE_SHEETS_API_URL: url },
    requests,
    /** Token requests so far. */
    tokenRequests: () => requests.filter((r) => r.path === '/token'),
    /** A service account this fake knows, and its key file. */
    addServiceAccount(clientEmail: string) {
      const key = createServiceAccountKey(clientEmail);
      accounts.set(clientEmail, key.publicKeyPem);
      return key;
    },
    /** A spreadsheet with one empty sheet of 26 columns, shared with `sharedWith`. */
    addSpreadsheet(id: string, sharedWith: string[], sheetName = 'Sheet1') {
      spreadsheets.set(id, {
        sheets: new Map([[sheetName, { sheetId: nextSheetId++, columnCount: 26, rows: [] }]]),
        sharedWith: new Set(sharedWith),
      });
    },
    rows(id: string, sheetName = 'Sheet1'): Cell[][] {
      return spreadsheets.get(id)?.sheets.get(sheetName)?.rows ?? [];
    },
    /** Answers the next Sheets request(s) so, whatever they ask. */
    failSheets(reply: ForcedReply, times = 1) {
      for (let i = 0; i < times; i++) forcedSheets.push(reply);
    },
    failToken(reply: ForcedReply, times = 1) {
      for (let i = 0; i < times; i++) forcedToken.push(reply);
    },
    /** Every access token issued so far stops working (Google revoked them). */
    revokeTokens() {
      tokens.clear();
    },
    sheetsError,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;
