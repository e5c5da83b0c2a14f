import { startHttpsReceiver, type ReceivedWebhook, type Reply } from './https-receiver';
import type { TestCertificates } from './test-ca';

// Shared by the test suites: no test-runner imports here.

/** A table of the fake: its id, its name and the columns it has. */
export type FakeAirtableTable = { base: string; id: string; name: string; fields: string[] };

export type AirtableRecord = {
  id: string;
  base: string;
  table: string;
  createdTime: string;
  fields: Record<string, unknown>;
};

const airtableError = (status: number, type: string, message?: string): Reply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: message === undefined ? type : { type, message } }),
});

/**
 * Airtable's `POST /v0/{base}/{table}` on 127.0.0.1 over real TLS (the test CA), answering
 * as the documented API does: 401 without the token, 403 for a base it cannot reach, 404 for
 * an unknown table, 422 for a body that is no records list or a field the table lacks
 * (`UNKNOWN_FIELD_NAME`), 200 with the created records otherwise, which it keeps. `script`
 * queues answers (a 429 with `Retry-After`, a 5xx) for the next requests.
 */
export async function startFakeAirtable(
  certificates: TestCertificates,
  options: { token: string; tables: FakeAirtableTable[] },
) {
  const records: AirtableRecord[] = [];
  const scripted: Reply[] = [];

  const answer = (request: ReceivedWebhook): Reply => {
    const next = scripted.shift();
    if (next) return next;
    if (request.headers.authorization !== `Bearer ${options.token}`)
      return airtableError(401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
    const [, version, base, rawTable, extra] = request.path.split('?')[0]!.split('/');
    if (request.method !== 'POST' || version !== 'v0' || !base || !rawTable || extra)
      return airtableError(404, 'NOT_FOUND');
    const table = decodeURIComponent(rawTable);
    const ofBase = options.tables.filter((t) => t.base === base);
    if (ofBase.length === 0)
      return airtableError(
        403,
        'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
        'Invalid permissions, or the requested model was not found.',
      );
    const found = ofBase.find((t) => t.id === table || t.name === table);
    if (!found) return airtableError(404, 'TABLE_NOT_FOUND', `Could not find table ${table}`);
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return airtableError(415, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: content type');
    let body: { records?: unknown; typecast?: unknown };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return airtableError(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: parse error');
    }
    const given = body.records;
    if (!Array.isArray(given) || given.length < 1 || given.length > 10)
      return airtableError(422, 'INVALID_RECORDS', 'records must be an array of 1 to 10');
    const created: AirtableRecord[] = [];
    for (const record of given as Array<{ fields?: unknown }>) {
      if (!record || typeof record.fields !== 'object' || record.fields === null)
        return airtableError(
          422,
          'INVALID_REQUEST_MISSING_FIELDS',
          'Could not find field "fields"',
        );
      for (const name of Object.keys(record.fields))
        if (!found.fields.includes(name))
          return airtableError(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
      created.push({
        id: `rec${String(records.length + created.length).padStart(14, '0')}`,
        base,
        table: found.id,
        createdTime: new Date().toISOString(),
        fields: { ...(record.fields as Record<string, unknown>) },
      });
    }
    records.push(...created);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        records: created.map(({ id, createdTime, fields }) => ({ id, createdTime, fields })),
      }),
    };
  };

  const server = await startHttpsReceiver(certificates, answer);
  return {
    url: server.url,
    /** Every request as it arrived (headers included). */
    received: server.received,
    /** The records created, oldest first. */
    records,
    /** Answers the next requests with these, in order, before looking at them. */
    script(...replies: Reply[]) {
      scripted.push(...replies);
    },
    waitFor: server.waitFor,
    close: server.close,
  };
}

export type FakeAirtable = Awaited<ReturnType<typeof startFakeAirtable>>;
