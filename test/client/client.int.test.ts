import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Formward, FormwardError } from '../../client/src/index';
import { useTestStack } from '../support/fixture';

/*
 * The client package (client/) against a real server: its resources, the ingest helper, the
 * iterator over list pages and the typed errors; then the package as npm packs it, installed
 * offline into a scratch project that compiles under --strict and calls the same server.
 */

const t = useTestStack();
const root = path.resolve(__dirname, '../..');
const clientDir = path.join(root, 'client');

const formward = () => new Formward({ baseUrl: t.stack.url, apiKey: t.adminKey });

/** What `fn` rejects with, which must be a FormwardError. */
async function formwardError(fn: () => Promise<unknown>): Promise<FormwardError> {
  const error = await fn().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormwardError);
  return error as FormwardError;
}

describe('the client package against a running server', () => {
  it('creates a form with fields and limits, updates them, and reads the form back', async () => {
    const api = formward();
    const form = await api.forms.create({
      name: 'Sign-ups',
      fields: [
        { name: 'email', label: 'E-mail', type: 'email', required: true },
        { name: 'team', label: 'Team', type: 'text' },
      ],
      limits: { max_submissions: 50, unique_field: 'email' },
    });
    expect(form).toMatchObject({
      name: 'Sign-ups',
      limits: { max_submissions: 50, unique_field: 'email' },
      open: true,
    });
    expect(form.fields?.map((f) => f.name)).toEqual(['email', 'team']);

    const updated = await api.forms.update(form.id, {
      name: 'Sign-ups 2027',
      limits: { max_submissions: 2, closed_message: 'Full, sorry.' },
    });
    expect(updated).toMatchObject({
      name: 'Sign-ups 2027',
      limits: { max_submissions: 2, closed_message: 'Full, sorry.' },
    });
    expect(await api.forms.get(form.endpoint_token)).toMatchObject({ id: form.id });
    const listed = [];
    for await (const f of api.forms.all({ per_page: '1' })) listed.push(f.id);
    expect(listed).toContain(form.id);

    // The limit holds through the ingest helper: two accepted, the third closed.
    for (const email of ['a@example.com', 'b@example.com'])
      expect((await api.submit(form.endpoint_token, { email })).ok).toBe(true);
    const closed = await formwardError(() =>
      api.submit(form.endpoint_token, { email: 'c@example.com' }),
    );
    expect(closed).toMatchObject({ status: 403, code: 'form_closed', message: 'Full, sorry.' });
    expect((await api.stats.form(form.id)).total_submissions).toBe(2);
  });

  it('submits through the ingest helper and walks every submission across pages', async () => {
    const api = formward();
    const form = await api.forms.create({ name: 'Feedback' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const result = await api.submit(form.endpoint_token, { message: `note ${i}`, n: i });
      ids.push(String(result.id));
    }
    const query = { form_id: form.id, per_page: '3' } as const;

    const pages = [];
    for await (const page of api.submissions.pages(query)) pages.push(page);
    expect(pages.map((p) => p.submissions.length)).toEqual([3, 3, 1]);
    expect(pages[0]!.meta).toMatchObject({ total: 7, total_pages: 3, per_page: 3 });

    const walked = [];
    for await (const submission of api.submissions.all(query)) walked.push(submission);
    // Newest first, each once.
    expect(walked.map((s) => s.id)).toEqual([...ids].reverse());
    expect(walked[0]!.payload_json).toEqual({ message: 'note 6', n: 6 });

    const one = await api.submissions.get(ids[0]!);
    expect(one).toMatchObject({ id: ids[0], form_id: form.id, payload_json: { n: 0 } });
  });

  it('manages a webhook plugin of a form', async () => {
    const api = formward();
    const form = await api.forms.create({ name: 'Hooks' });
    const plugin = await api.plugins.create(form.id, {
      plugin_type: 'webhook',
      // A public address literal: no DNS lookup for the address guard.
      config: { url: 'https://93.184.216.34/hook' },
    });
    expect(plugin.signing_secret).toMatch(/^whsec_/);
    const disabled = await api.plugins.update(form.id, plugin.id, { enabled: false });
    expect(disabled.enabled).toBe(false);
    expect((await api.plugins.list(form.id)).plugins.map((p) => p.id)).toEqual([plugin.id]);
    await api.plugins.delete(form.id, plugin.id);
    expect((await api.plugins.list(form.id)).plugins).toEqual([]);
  });

  it('answers a 404 and a 422 as FormwardError with the envelope code', async () => {
    const api = formward();
    const missing = await formwardError(() => api.forms.get('nosuchform'));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.is('not_found')).toBe(true);
    expect(missing.body).toMatchObject({ ok: false, error: 'not_found' });

    const invalid = await formwardError(() =>
      api.forms.create({ name: 'Bad', limits: { max_submissions: 0 } }),
    );
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(invalid.errors).toEqual([expect.stringMatching(/^limits\.max_submissions: /)]);

    // Ingest's own 422 carries field_errors by name.
    const form = await api.forms.create({
      name: 'Typed',
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
    });
    const refused = await formwardError(() =>
      api.submit(form.endpoint_token, { email: 'not an address' }),
    );
    expect(refused).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(Object.keys(refused.fieldErrors)).toEqual(['email']);

    const noKey = await formwardError(() => new Formward({ baseUrl: t.stack.url }).forms.list());
    expect(noKey).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it("lets a network error through as fetch's own", async () => {
    // A port nothing listens on: the error is fetch's TypeError, not an answer.
    const api = new Formward({ baseUrl: 'http://127.0.0.1:9', apiKey: t.adminKey });
    const error = await api.forms.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(FormwardError);
  });
});

describe('the client iterator on pages cut short by the byte budget', () => {
  // Each submission's view is over 3 KiB: a page holds two, and goes on by cursor.
  const small = useTestStack({ env: { LIST_MAX_BYTES: '8KiB' } });

  it('follows the cursor of each cut page and yields every submission once', async () => {
    const api = new Formward({ baseUrl: small.stack.url, apiKey: small.adminKey });
    const form = await api.forms.create({ name: 'Large payloads' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(String((await api.submit(form.endpoint_token, { blob: 'x'.repeat(3000), i })).id));

    const pages = [];
    for await (const page of api.submissions.pages({ form_id: form.id })) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.meta.truncated).toBe(true);
    const next = pages[0]!.links.find((link) => link.rel === 'next')!;
    expect(new URL(next.href).searchParams.has('cursor')).toBe(true);

    const walked = [];
    for await (const submission of api.submissions.all({ form_id: form.id }))
      walked.push(submission.id);
    expect(walked).toEqual([...ids].reverse());
  });
});

describe('the client package as npm packs it', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-client-consumer-'));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  // npm's own variables from an outer `npm test` must not steer the inner npm runs.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  // Asynchronous: the server under test answers from this very process.
  const run = async (command: string, args: string[], cwd: string, extra = {}) =>
    (await promisify(execFile)(command, args, { cwd, env: { ...env, ...extra } })).stdout;

  it('builds, installs offline, compiles under --strict and calls the server', async () => {
    const packed = JSON.parse(
      await run('npm', ['pack', '--json', '--pack-destination', scratch], clientDir),
    ) as { filename: string; name: string; files: { path: string }[] }[];
    const { filename, name, files } = packed[0]!;
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'package.json']),
    );

    fs.writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch-consumer', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', path.join(scratch, filename)],
      scratch,
    );
    fs.writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    fs.writeFileSync(
      path.join(scratch, 'consumer.ts'),
      [
        `import { Formward, FormwardError, type Form } from '${name}';`,
        'const api = new Formward({ baseUrl: process.env.FORMWARD_URL!, apiKey: process.env.FORMWARD_KEY });',
        "const form: Form = await api.forms.create({ name: 'From the tarball' });",
        '// @ts-expect-error: a form has no `nam`',
        "await api.forms.update(form.id, { nam: 'typo' });",
        "const missing = await api.forms.get('nosuchform').catch((e: unknown) => e);",
        'const code = missing instanceof FormwardError ? missing.code : null;',
        'console.log(JSON.stringify({ name: form.name, code }));',
        'declare const process: { env: Record<string, string | undefined> };',
        '',
      ].join('\n'),
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], scratch);
    const output = await run(process.execPath, ['consumer.js'], scratch, {
      FORMWARD_URL: t.stack.url,
      FORMWARD_KEY: t.adminKey,
    });
    expect(JSON.parse(output)).toEqual({ name: 'From the tarball', code: 'not_found' });
  });
});
