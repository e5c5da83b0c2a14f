import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/domain/submissions/json-depth';
import { fieldsTooLargeMessage, INGEST_LIMITS } from '../../src/domain/submissions/limits';
import {
  checkSubmission,
  prepareSubmission,
  type CaptchaVerdict,
  type SubmissionToCheck,
} from '../../src/domain/submissions/prepare-submission';
import type { UploadedFile } from '../../src/domain/submissions/store-submission';
import { TEST_SUBMISSION_FIELDS } from '../../src/domain/submissions/test-submission';

// Pure inputs and outputs: no database, no server.
const NOW = 1_750_000_000_000;
const FORM = { id: 'form-1', accountId: 'account-1' };

const input = (
  fields: Record<string, unknown>,
  more: Partial<SubmissionToCheck> = {},
): SubmissionToCheck => ({
  form: FORM,
  fields,
  files: [],
  request: { receivedAtMs: NOW, sourceIp: '203.0.113.7', userAgent: 'ua', referrer: null },
  limits: 'check',
  ...more,
});

/** The submission to store: checked, then prepared with the CAPTCHA's verdict. */
const prepared = (
  fields: Record<string, unknown>,
  more: Partial<SubmissionToCheck> = {},
  captcha: CaptchaVerdict = 'none',
) => {
  const result = checkSubmission(input(fields, more));
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.problem)}`);
  return prepareSubmission({ ...result.submission, captcha });
};

const problem = (fields: Record<string, unknown>, more: Partial<SubmissionToCheck> = {}) => {
  const result = checkSubmission(input(fields, more));
  if (result.ok) throw new Error('accepted');
  return result.problem;
};

const file: UploadedFile = {
  fieldName: 'cv',
  filename: 'cv.pdf',
  contentType: 'application/pdf',
  size: 3,
  open: () => {
    throw new Error('not read here');
  },
};

describe('checkSubmission and prepareSubmission', () => {
  it('turns plain fields into the submission to store, with the request facts', () => {
    const checked = checkSubmission(input({ topic: 'hello', n: 2 }, { files: [file] }));
    const row = {
      formId: 'form-1',
      accountId: 'account-1',
      payload: { topic: 'hello', n: 2 },
      special: null,
      sourceIp: '203.0.113.7',
      userAgent: 'ua',
      referrer: null,
      fillMs: null,
      // Stored as created_at: the receipt's received_at.
      receivedAt: new Date(NOW),
      files: [file],
    };
    expect(checked).toEqual({ ok: true, submission: { ...row, honeypotFilled: false } });
    if (!checked.ok) return;
    for (const captcha of ['none', 'passed'] as const) {
      expect(prepareSubmission({ ...checked.submission, captcha })).toEqual({
        ...row,
        spamReason: null,
      });
    }
  });

  it('CAPTCHA unverified (its provider out of reach): kept as spam without its files', () => {
    const unverified = prepared({ topic: 'hello' }, { files: [file] }, 'unverified');
    expect(unverified.spamReason).toBe('captcha_unverified');
    expect(unverified.payload).toEqual({ topic: 'hello' });
    expect(unverified.files).toEqual([]);
    // The honeypot comes first in the table of spam rules.
    expect(prepared({ _hp: 'x', topic: 'buy' }, {}, 'unverified').spamReason).toBe('honeypot');
    // The verdict is a fact: the checked submission it was given stays as it was.
    const checked = checkSubmission(input({ topic: 'hello' }, { files: [file] }));
    if (!checked.ok) throw new Error('refused');
    prepareSubmission({ ...checked.submission, captcha: 'unverified' });
    expect(checked.submission.files).toEqual([file]);
  });

  it('leaves the fields it was given unchanged', () => {
    const fields = { _hp: '', _ts: String(NOW - 5_000), email: ' A@B.example ' };
    prepared(fields);
    expect(fields).toEqual({ _hp: '', _ts: String(NOW - 5_000), email: ' A@B.example ' });
  });

  it('honeypot: a filled _hp marks spam, is never stored, and drops the files', () => {
    const spam = prepared({ _hp: 'x', topic: 'buy' }, { files: [file] });
    expect(spam.spamReason).toBe('honeypot');
    expect(spam.payload).toEqual({ topic: 'buy' });
    expect(spam.files).toEqual([]);

    const empty = prepared({ _hp: '  ', topic: 'hi' }, { files: [file] });
    expect(empty.spamReason).toBeNull();
    expect(empty.payload).toEqual({ topic: 'hi' });
    expect(empty.files).toEqual([file]);
  });

  it('fill stamp: _ts becomes fillMs against the arrival time and is never stored', () => {
    const stamped = prepared({ _ts: String(NOW - 12_345), topic: 'hi' });
    expect(stamped.fillMs).toBe(12_345);
    expect(stamped.payload).toEqual({ topic: 'hi' });
    expect(prepared({ _ts: 'soon' }).fillMs).toBeNull();
  });

  it('NUL: refuses each field whose name or value holds one, after the control fields go', () => {
    expect(problem({ a: 'x\0y', ['b\0']: 'ok', c: { deep: ['\0'] }, _ts: '\0' })).toEqual({
      kind: 'invalid',
      errors: [
        'a: must not contain NUL characters',
        'b\\0: must not contain NUL characters',
        'c: must not contain NUL characters',
      ],
    });
  });

  it('ill-formed Unicode: refuses each field with a lone surrogate in a name or value, at any depth', () => {
    expect(
      problem({
        a: 'x\ud800y',
        ['b\udc00']: 'ok',
        c: { deep: [{ ['k\ud83d']: 1 }] },
        pair: 'a whole pair is fine: \ud83d\ude00',
        _ts: '\udfff',
      }),
    ).toEqual({
      kind: 'ill_formed',
      errors: [
        'a: must be well-formed Unicode (it holds a lone surrogate)',
        'b\ufffd: must be well-formed Unicode (it holds a lone surrogate)',
        'c: must be well-formed Unicode (it holds a lone surrogate)',
      ],
    });
    expect(prepared({ pair: '\ud83d\ude00' }).payload).toEqual({ pair: '😀' });
    // NUL keeps its own answer (validation_failed) and comes first.
    expect(problem({ a: '\0', b: '\ud800' }).kind).toBe('invalid');
  });

  it('honeypot: never refused for what the post holds; stored as spam without what cannot be stored', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level <= MAX_JSON_DEPTH; level++) deep = [deep];
    const spam = prepared({
      _hp: 'x',
      email: 'not-an-address',
      name: ' Bot ',
      nul: 'a\0b',
      lone: '\ud800',
      '': 'empty name',
      deep,
      topic: 'buy',
    });
    expect(spam.spamReason).toBe('honeypot');
    expect(spam.payload).toEqual({ email: 'not-an-address', name: ' Bot ', topic: 'buy' });
    // special_normalized as usual where valid: no e-mail, the name trimmed.
    expect(spam.special).toEqual({ name: 'Bot' });
    // Size stays a limit, honeypot or not.
    const big = 'x'.repeat(INGEST_LIMITS.fieldValueBytes + 1);
    expect(problem({ _hp: 'x', big }).kind).toBe('too_large');
  });

  it("honeypot with a field list: the form's rules shape the row, unknown names go unless kept", () => {
    const fields = [
      { name: 'email', label: 'E-mail', type: 'email' as const, required: true },
      { name: 'seats', label: 'Seats', type: 'number' as const, required: true, max: 4 },
      { name: 'age', label: 'Age', type: 'number' as const, required: false },
    ];
    const sent = { _hp: 'x', email: 'nope', seats: ' 3 ', age: '99x', extra: 'junk' };
    for (const unknownFields of ['drop', 'reject'] as const) {
      const spam = prepared(sent, { rules: { fields, unknownFields }, files: [file] });
      expect(spam.spamReason).toBe('honeypot');
      // Valid answers as stored (a number), refused ones as sent, no unknown name, no file.
      expect(spam.payload).toEqual({ email: 'nope', seats: 3, age: '99x' });
      expect(spam.special).toBeNull();
      expect(spam.files).toEqual([]);
    }
    const kept = prepared(sent, { rules: { fields, unknownFields: 'keep' } });
    expect(kept.payload).toEqual({ email: 'nope', seats: 3, age: '99x', extra: 'junk' });
    // The same post without the honeypot is refused.
    expect(problem({ ...sent, _hp: '' }, { rules: { fields, unknownFields: 'drop' } })).toEqual(
      expect.objectContaining({ kind: 'invalid', fieldProblems: expect.any(Object) }),
    );
  });

  it('special fields: email trimmed and lower-cased, name and message trimmed', () => {
    const submission = prepared({
      email: ['  Jane@Example.COM ', 'second@example.com'],
      name: ' Jane ',
      message: 42,
    });
    expect(submission.special).toEqual({ email: 'jane@example.com', name: 'Jane', message: '42' });
    // The payload keeps the fields as sent.
    expect(submission.payload.email).toEqual(['  Jane@Example.COM ', 'second@example.com']);
  });

  it('email validation: a present email must be an address', () => {
    expect(problem({ email: 'not-an-address' })).toEqual({
      kind: 'invalid',
      errors: ['email: must be a valid e-mail address'],
    });
    expect(problem({ email: '' }).errors).toEqual(['email: must be a valid e-mail address']);
  });

  it('limits: too many fields, a value too large and the total are too_large', () => {
    const many = Object.fromEntries(
      Array.from({ length: INGEST_LIMITS.fields + 1 }, (_, i) => [`f${i}`, 'v']),
    );
    expect(problem(many)).toEqual({
      kind: 'too_large',
      errors: [`too many fields: ${INGEST_LIMITS.fields + 1} (limit ${INGEST_LIMITS.fields})`],
    });
    const big = 'x'.repeat(INGEST_LIMITS.fieldValueBytes + 1);
    expect(problem({ big }).errors).toEqual(['big: value larger than 100 KiB']);
    const nearlyBig = 'x'.repeat(INGEST_LIMITS.fieldValueBytes - 10);
    const total = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, nearlyBig]));
    expect(problem(total).errors).toEqual([fieldsTooLargeMessage]);
  });

  it('limits: empty or long names and deep nesting are invalid; the control fields count', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level <= MAX_JSON_DEPTH; level++) deep = [deep];
    expect(problem({ '': 'x', ['n'.repeat(129)]: 'x', deep })).toEqual({
      kind: 'invalid',
      errors: [
        'field names must not be empty',
        `${'n'.repeat(32)}…: field name longer than 128 characters`,
        `deep: nested deeper than ${MAX_JSON_DEPTH} levels`,
      ],
    });
    // A too-large problem is reported before an invalid one, and before the honeypot is read.
    expect(problem({ '': 'x', _hp: 'x'.repeat(INGEST_LIMITS.fieldValueBytes + 1) }).kind).toBe(
      'too_large',
    );
  });

  it('limits checked while reading (form bodies) are not measured again', () => {
    const repeated = Array.from({ length: 3 }, () => 'x'.repeat(INGEST_LIMITS.fieldValueBytes));
    expect(prepared({ many: repeated }, { limits: 'checked-while-reading' }).payload).toEqual({
      many: repeated,
    });
    expect(problem({ many: repeated }).kind).toBe('too_large');
  });

  it('cuts the user agent and referrer to the lengths stored', () => {
    const submission = prepared(
      {},
      {
        request: {
          receivedAtMs: NOW,
          sourceIp: null,
          userAgent: 'u'.repeat(2000),
          referrer: 'r'.repeat(3000),
        },
      },
    );
    expect(submission.userAgent).toHaveLength(1024);
    expect(submission.referrer).toHaveLength(2048);
  });

  it("accepts the dashboard's test sample", () => {
    expect(prepared({ ...TEST_SUBMISSION_FIELDS }).special).toEqual({
      email: 'jane@example.com',
      name: 'Jane (test)',
      message: 'A test submission sent from the Formward dashboard.',
    });
  });
});
