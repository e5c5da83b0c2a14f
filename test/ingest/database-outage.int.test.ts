import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/embedded/postgres';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postForm, postJson, submitJson } from '../support/ingest-requests';

// A PostgreSQL restart seen from ingest (docs/api-conventions.md, Errors): a restart of a
// few seconds is waited out, a longer outage is a 503 `unavailable` with Retry-After (and a
// page that re-posts the fields for a browser), never a 500. The stack runs on a PostgreSQL
// of its own, started here, so stopping it leaves the other suites alone.

const LONG = { timeout: 60_000 };
let scratch: string;
let postgres: EmbeddedPostgres;

beforeAll(async () => {
  scratch = fs.mkdtempSync('/tmp/formward-outage-');
  fs.chmodSync(scratch, 0o755); // as root, `postgres` must enter it (we never open parents up)
  postgres = await startEmbeddedPostgres({ dataDir: path.join(scratch, 'data') });
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const t = useTestStack(() => ({ postgresUrl: postgres.url }));

async function restartPostgres() {
  postgres = await startEmbeddedPostgres({
    dataDir: path.join(scratch, 'data'),
    port: postgres.port,
  });
}

const storedIds = async () =>
  (await t.stack.sql<{ id: string }>('select id::text from submissions')).map((row) => row.id);

describe('PostgreSQL down for longer than the retry budget', () => {
  it(
    'answers 503 unavailable with Retry-After, a resend page to browsers, then accepts again',
    LONG,
    async () => {
      const form = await t.api.createForm({ name: 'Outage form' });
      await submitJson(form, { email: 'before@example.com' }); // the pool holds live connections
      await postgres.stop();
      try {
        const started = Date.now();
        const json = await postJson(form.json_url, { email: 'ada@example.com' });
        expectError(json, 503, 'unavailable');
        expect(json.headers.get('retry-after')).toBe('5');
        expect(Date.now() - started).toBeGreaterThanOrEqual(4_000); // it waited before giving up

        const fields = { name: '"><script>alert(1)</script>', tags: ['a', 'b&c'] };
        const page = await postForm(form.submission_url, fields, { accept: 'text/html' });
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toBe('5');
        expect(page.headers.get('content-type')).toMatch(/text\/html/);
        const action = new URL(form.submission_url).pathname;
        expect(page.text).toContain(`<form method="post" action="${action}">`);
        expect(page.text).toContain(
          '<input type="hidden" name="name" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
        );
        expect(page.text).not.toContain('<script>');
        expect(page.text).toContain('<input type="hidden" name="tags" value="a">');
        expect(page.text).toContain('<input type="hidden" name="tags" value="b&amp;c">');
      } finally {
        await restartPostgres();
      }
      const id = await submitJson(form, { email: 'after@example.com' });
      expect(await storedIds()).toContain(id);
    },
  );
});

describe('PostgreSQL restarting within the retry budget', () => {
  it('the post waits for it: 200 and the submission is stored', LONG, async () => {
    const form = await t.api.createForm({ name: 'Restart form' });
    await submitJson(form, { email: 'before@example.com' });
    await postgres.stop();
    const posted = postJson(form.json_url, { email: 'patient@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await restartPostgres();
    const res = await posted;
    expect(res.status, res.text).toBe(200);
    expect(await storedIds()).toContain(ingestResultOf(res).id);
  });
});
