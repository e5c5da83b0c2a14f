import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/http/kit/errors/error-codes';
import { expectError, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, postJson, postMultipart, type Part } from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

// docs/api-conventions.md (limits): JSON / urlencoded body 1 MiB; multipart 10 MiB a file, 10 files;
// 200 fields, field name 128 characters, a value 100 KiB.
const KIB = 1024;
const MIB = 1024 * KIB;

const t = useTestStack();

/** `count` fields named f0, f1, ... each holding `value`. */
const fields = (count: number, value = 'v') =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, value]));

const asParts = (values: Record<string, string>): Part[] =>
  Object.entries(values).map(([name, value]) => ({ name, value }));

const files = (count: number, size = 10): Part[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `file${i}`,
    filename: `file${i}.bin`,
    content: Buffer.alloc(size, i),
  }));

type Encoding = 'json' | 'urlencoded' | 'multipart';

/** Sends the same fields in one of the three encodings, asking for JSON answers. */
function send(
  form: FormView,
  encoding: Encoding,
  values: Record<string, string>,
  extra: Part[] = [],
) {
  const accept = { Accept: 'application/json' };
  if (encoding === 'json') return postJson(form.json_url, values);
  if (encoding === 'urlencoded') return postForm(form.submission_url, values, accept);
  return postMultipart(form.submission_url, [...asParts(values), ...extra], accept);
}

type Refusal = {
  case: string;
  encoding: Encoding;
  values: Record<string, string>;
  extra?: Part[];
  status: number;
  code: ErrorCode;
};

const encodings: Encoding[] = ['json', 'urlencoded', 'multipart'];
const tooLarge = (name: string, encoding: Encoding, values = {}, extra?: Part[]): Refusal => ({
  case: name,
  encoding,
  values,
  extra,
  status: 413,
  code: 'payload_too_large',
});
const overBodyLimit = fields(11, 'x'.repeat(100_000)); // each value under 100 KiB, 1.1 MB in all

const refusals: Refusal[] = [
  tooLarge('JSON body over 1 MiB', 'json', overBodyLimit),
  tooLarge('urlencoded body over 1 MiB', 'urlencoded', overBodyLimit),
  tooLarge('a file over 10 MiB', 'multipart', { a: 'b' }, files(1, 10 * MIB + 1)),
  tooLarge('11 files', 'multipart', {}, files(11)),
  ...encodings.map((e) => tooLarge(`201 fields (${e})`, e, fields(201))),
  ...encodings.map((e) =>
    tooLarge(`value over 100 KiB (${e})`, e, { big: 'x'.repeat(100 * KIB + 1) }),
  ),
  ...encodings.map((e) => ({
    ...tooLarge(`129-char field name (${e})`, e, { ['n'.repeat(129)]: 'v' }),
    status: 422,
    code: 'validation_failed' as const,
  })),
];

describe('limits refused', () => {
  it.each(refusals)(
    '$case → $status $code, nothing stored',
    async ({ encoding, values, extra, status, code }) => {
      const form = await t.api.createForm({ accept_files: true });
      expectError(await send(form, encoding, values, extra), status, code);
      expect(await countSubmissions(t.stack, form.id)).toBe(0);
    },
  );
});

describe('limits reached exactly are accepted', () => {
  const atLimits = {
    ...fields(198),
    ['n'.repeat(128)]: 'long name',
    big: 'x'.repeat(100 * KIB),
  };

  it.each(encodings)('200 fields, a 128-char name and a 100 KiB value (%s)', async (encoding) => {
    const form = await t.api.createForm();
    const res = await send(form, encoding, atLimits);
    expect(res.status, res.text).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(Object.keys(stored.payload_json)).toHaveLength(200);
    expect(stored.payload_json.big).toBe(atLimits.big);
  });

  it('10 files, one of exactly 10 MiB', async () => {
    const form = await t.api.createForm({ accept_files: true });
    const res = await send(form, 'multipart', {}, [
      ...files(9),
      ...files(1, 10 * MIB).map((p) => ({ ...p, name: 'large' })),
    ]);
    expect(res.status, res.text).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(Object.keys(stored.payload_json)).toHaveLength(10);
    expect(stored.payload_json.large).toMatchObject({ size: 10 * MIB });
  });
});
