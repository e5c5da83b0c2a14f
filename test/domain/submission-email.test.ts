import { describe, expect, it } from 'vitest';
import {
  buildSubmissionEmail,
  formatSize,
  notificationMessageId,
  notificationRecipients,
  type SubmissionEmailInput,
} from '../../src/domain/mail/submission-email';

const BASE = 'https://forms.example.org';

function input(overrides: Partial<SubmissionEmailInput> = {}): SubmissionEmailInput {
  return {
    form: { id: '7', name: 'Contact' },
    submission: {
      id: '42',
      createdAt: new Date('2026-03-04T05:06:07.890Z'),
      payloadJson: { message: 'Hello' },
      specialNormalized: { message: 'Hello' },
    },
    files: [],
    recipients: ['owner@example.com'],
    baseUrl: BASE,
    senderDomain: 'mail.example.org',
    ...overrides,
  };
}

function withPayload(
  payloadJson: Record<string, unknown>,
  specialNormalized: SubmissionEmailInput['submission']['specialNormalized'] = null,
): SubmissionEmailInput {
  const base = input();
  return input({ submission: { ...base.submission, payloadJson, specialNormalized } });
}

describe('buildSubmissionEmail', () => {
  it('addresses the form, names it in the subject and links the submission', () => {
    const mail = buildSubmissionEmail(input({ recipients: ['A@Example.com', 'b@example.com'] }));
    expect(mail.to).toEqual(['a@example.com', 'b@example.com']);
    expect(mail.subject).toBe('New submission to "Contact"');
    expect(mail.text).toContain('message: Hello\n');
    expect(mail.text).toContain('Form: Contact (id 7)');
    expect(mail.text).toContain('Submission: 42, received 2026-03-04 05:06:07 UTC');
    expect(mail.text).toContain(`View it: ${BASE}/api/submissions/42 `);
    expect(mail.html).toContain(`<a href="${BASE}/api/submissions/42">`);
    expect(mail.headers).toMatchObject({
      'Auto-Submitted': 'auto-generated',
      'X-Formward-Submission-Id': '42',
      'X-Formward-Form-Id': '7',
    });
  });

  it('escapes every submitted text, field name and the form name in the HTML part', () => {
    const mail = buildSubmissionEmail(
      input({
        form: { id: '7', name: 'Q&A <"quotes">' },
        submission: {
          ...input().submission,
          payloadJson: {
            '<img src=x onerror=alert(1)>': 'it\'s <b>bold</b> & "quoted"',
            note: '</td></tr></table><script>evil()</script>',
          },
        },
      }),
    );
    expect(mail.html).not.toMatch(/<img|<b>|<script|<\/td><\/tr><\/table><script/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('it&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
    expect(mail.html).toContain('&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;evil()');
    expect(mail.html).toContain(
      '<title>New submission to &quot;Q&amp;A &lt;&quot;quotes&quot;&gt;&quot;</title>',
    );
    // The plain-text part shows what was sent, as is.
    expect(mail.text).toContain('note: </td></tr></table><script>evil()</script>');
    expect(mail.subject).toBe('New submission to "Q&A <"quotes">"');
  });

  it('keeps a one-line subject whatever whitespace the form name has', () => {
    const mail = buildSubmissionEmail(input({ form: { id: '7', name: ' Sign\r\nup\tform ' } }));
    expect(mail.subject).toBe('New submission to "Sign up form"');
  });

  it('lists arrays as items and indents multi-line values', () => {
    const mail = buildSubmissionEmail(
      withPayload({
        topics: ['pricing', 'support'],
        message: 'line one\r\nline two',
        single: ['only'],
        none: [],
      }),
    );
    expect(mail.text).toContain('message:\n  line one\n  line two\n');
    expect(mail.text).toContain('topics:\n  - pricing\n  - support\n');
    expect(mail.text).toContain('single: only\n');
    expect(mail.text).toContain('none:\n  (none)\n');
    expect(mail.html).toContain(
      '<ul style="margin:0;padding-left:18px"><li><span style="white-space:pre-wrap">pricing</span></li><li><span style="white-space:pre-wrap">support</span></li></ul>',
    );
    expect(mail.html).toContain('line one\nline two');
  });

  it('shows numbers, booleans, empty values and nested objects', () => {
    const mail = buildSubmissionEmail(
      withPayload({ seats: 3, agree: true, blank: '', missing: null, meta: { a: [1, 2] } }),
    );
    expect(mail.text).toContain('seats: 3\n');
    expect(mail.text).toContain('agree: true\n');
    expect(mail.text).toContain('blank: (empty)\n');
    expect(mail.text).toContain('missing: (empty)\n');
    expect(mail.text).toContain('meta:\n  {\n    "a": [\n');
    expect(mail.html).toContain('&quot;a&quot;');
  });

  it('puts name, email and message first, then the other fields in stored order', () => {
    const mail = buildSubmissionEmail(
      withPayload({ zeta: '1', message: 'm', alpha: '2', email: 'e@example.com', name: 'n' }),
    );
    const order = ['name', 'email', 'message', 'zeta', 'alpha'].map((field) =>
      mail.text.indexOf(`\n${field}: `),
    );
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('says so when the submission has no fields', () => {
    const mail = buildSubmissionEmail(withPayload({}));
    expect(mail.text).toContain('(the submission has no fields)');
    expect(mail.html).toContain('(the submission has no fields)');
    expect(mail.html).not.toContain('<table');
  });

  it('shows a stored upload with its name, size and download link', () => {
    const storedUrl = 'http://127.0.0.1:3000/api/submissions/42/files/9';
    const mail = buildSubmissionEmail(
      input({
        submission: {
          ...input().submission,
          payloadJson: {
            cv: {
              filename: 'cv.pdf',
              content_type: 'application/pdf',
              size: 123456,
              url: storedUrl,
            },
          },
        },
        files: [
          {
            id: '9',
            fieldName: 'cv',
            filename: 'cv.pdf',
            contentType: 'application/pdf',
            size: 123456,
          },
        ],
      }),
    );
    // The link follows today's BASE_URL, not the one stored at ingest.
    const url = `${BASE}/api/submissions/42/files/9`;
    expect(mail.text).toContain(`cv:\n  cv.pdf (application/pdf, 120.6 KB)\n  ${url}\n`);
    expect(mail.html).toContain(`<a href="${url}">cv.pdf</a> (application/pdf, 120.6 KB)`);
  });

  it('does not turn a look-alike file object from JSON ingest into a link', () => {
    const mail = buildSubmissionEmail(
      withPayload({
        cv: {
          filename: 'invoice.pdf',
          content_type: 'application/pdf',
          size: 1,
          url: 'https://evil.example/api/submissions/42/files/9',
        },
        other: { filename: 'x', size: 1, url: `${BASE}/api/submissions/41/files/1` },
      }),
    );
    expect(mail.html).not.toContain('<a href="https://evil.example');
    expect(mail.html).not.toContain(`<a href="${BASE}/api/submissions/41`);
    expect(mail.html).toContain(
      '&quot;url&quot;: &quot;https://evil.example/api/submissions/42/files/9&quot;',
    );
    expect(mail.text).toContain('"filename": "invoice.pdf"');
  });

  it('replies to the submitter when an e-mail came, with the name when one came too', () => {
    const both = buildSubmissionEmail(
      withPayload(
        { email: 'Ada@Example.com', name: 'Ada\nLovelace' },
        { email: 'ada@example.com', name: 'Ada\nLovelace' },
      ),
    );
    expect(both.replyTo).toEqual({ name: 'Ada Lovelace', address: 'ada@example.com' });
    expect(both.text).toContain('Reply to this e-mail to answer Ada Lovelace <ada@example.com>.');
    expect(both.html).toContain(
      'Reply to this e-mail to answer Ada Lovelace &lt;ada@example.com&gt;.',
    );

    const emailOnly = buildSubmissionEmail(
      withPayload({ email: 'ada@example.com' }, { email: 'ada@example.com' }),
    );
    expect(emailOnly.replyTo).toEqual({ address: 'ada@example.com' });

    const nameOnly = buildSubmissionEmail(withPayload({ name: 'Ada' }, { name: 'Ada' }));
    expect(nameOnly.replyTo).toBeUndefined();
    expect(nameOnly.text).not.toContain('Reply to this e-mail');

    const neither = buildSubmissionEmail(withPayload({ topic: 'x' }, null));
    expect(neither.replyTo).toBeUndefined();
    expect('replyTo' in neither).toBe(false);
  });

  it('uses a Message-ID derived from the submission and the set of addressees', () => {
    const mail = buildSubmissionEmail(input({ recipients: ['b@example.com', 'a@example.com'] }));
    expect(mail.messageId).toMatch(/^<submission-42\.[0-9a-f]{16}@mail\.example\.org>$/);
    expect(mail.messageId).toBe(
      notificationMessageId(
        '42',
        ['A@example.com', 'b@example.com', 'a@example.com'],
        'mail.example.org',
      ),
    );
    expect(mail.messageId).not.toBe(
      notificationMessageId('42', ['a@example.com'], 'mail.example.org'),
    );
    expect(mail.messageId).not.toBe(
      notificationMessageId('43', ['a@example.com', 'b@example.com'], 'mail.example.org'),
    );
  });
});

describe('notificationRecipients', () => {
  it('trims, lower-cases and drops duplicates and blanks, keeping the order', () => {
    expect(
      notificationRecipients([' B@example.com', 'a@example.com', 'b@EXAMPLE.com', ' ']),
    ).toEqual(['b@example.com', 'a@example.com']);
  });
});

describe('formatSize', () => {
  it('reads as bytes, KB or MB', () => {
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(1023)).toBe('1023 bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10 * 1024 * 1024)).toBe('10.0 MB');
  });
});
