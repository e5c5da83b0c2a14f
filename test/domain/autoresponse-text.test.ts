import { describe, expect, it } from 'vitest';
import {
  harmlessValue,
  looksLikeLinkOrAddress,
  mergeTags,
  renderBody,
  renderSubject,
  VALUE_CHARS,
  type MergeValues,
} from '../../src/domain/autoresponse/autoresponse-text';

const values = (payload: Record<string, unknown>, name: string | null = null): MergeValues => ({
  formName: 'Contact',
  name,
  payload,
});

/** What a stranger's `message` becomes in `Thanks: {field:message}`. */
const inserted = (message: unknown) =>
  renderBody('Thanks: {field:message}', values({ message })).slice('Thanks: '.length);

describe('merge tags', () => {
  it('fills {form}, {name} and {field:NAME}, and leaves unknown tags out', () => {
    const text = mergeTags(
      '{form} / {name} / {field:city} / {unknown} / {field:} / {field:nope}.',
      {
        formName: 'Sign-up',
        name: 'Jane',
        payload: { city: 'Lyon' },
      },
    );
    expect(text).toBe('Sign-up / Jane / Lyon /  /  / .');
  });

  it('leaves braces that are not tags alone, and inserts lists and numbers as text', () => {
    expect(mergeTags('{ not a tag } {1x}', values({}))).toBe('{ not a tag } {1x}');
    expect(
      mergeTags('{field:tags} {field:n} {field:ok}', values({ tags: ['a', 'b'], n: 3, ok: true })),
    ).toBe('a, b 3 true');
    // An object (an uploaded file's description) is not text: left out.
    expect(mergeTags('[{field:cv}]', values({ cv: { filename: 'cv.pdf', size: 3 } }))).toBe('[]');
  });

  it('does not read inherited properties as fields', () => {
    expect(mergeTags('{field:constructor}{field:__proto__}', values({}))).toBe('');
  });
});

describe('submitted values: no links, no addresses', () => {
  it.each([
    ['http://evil.example/x', ''],
    ['see https://evil.example now', 'see now'],
    ['HTTPS://EVIL.EXAMPLE', ''],
    ['hxxp://evil.example', ''],
    ['hxxps:evil', ''],
    ['go to www.evil.example', 'go to'],
    ['evil.com/x', ''],
    ['evil.com', ''],
    ['Visit EVIL.COM.', 'Visit'],
    ['evil.co.uk/path?q=1', ''],
    ['user@host', ''],
    ['write me: user@example.org', 'write me:'],
    ['mailto:someone', ''],
    ['javascript:alert(1)', ''],
    ['tel:+15551234', ''],
    ['//evil.example', ''],
    ['1.2.3.4', ''],
    ['10.0.0.1:8080/admin', ''],
    ['(evil.example)', ''],
    ['"evil.example"', ''],
  ])('%j becomes %j', (input, expected) => {
    expect(inserted(input)).toBe(expected);
  });

  it('catches internationalised domain names, punycode and other scripts', () => {
    expect(inserted('пример.рф')).toBe('');
    expect(inserted('bücher.de')).toBe('');
    expect(inserted('xn--80ak6aa92e.com')).toBe('');
    expect(inserted('例え.テスト')).toBe('');
    expect(inserted('evil.xn--p1ai')).toBe('');
  });

  it('catches unicode tricks: fullwidth, dot lookalikes, zero-width and direction characters', () => {
    expect(inserted('ｅｖｉｌ．ｃｏｍ')).toBe(''); // fullwidth
    expect(inserted('evil。com')).toBe(''); // ideographic full stop
    expect(inserted('evil․com')).toBe(''); // one dot leader
    expect(inserted('evil﹒com')).toBe(''); // small full stop
    expect(inserted('evil\u200b.com')).toBe(''); // zero-width space inside
    expect(inserted('evil.\u2060com')).toBe(''); // word joiner
    expect(inserted('\u202emoc.live\u202c')).toBe(''); // right-to-left override
    expect(inserted('user＠example')).toBe(''); // fullwidth at
    expect(inserted('evil\ufe0f.com')).toBe(''); // variation selector
    expect(inserted('evil\u3164.com')).toBe(''); // hangul filler, blank but not a space
    expect(inserted('ｈｔｔｐ：／／x')).toBe('');
  });

  it('catches defanged forms a reader would follow', () => {
    expect(inserted('evil[.]com')).toBe('');
    expect(inserted('evil(dot)com')).toBe('');
    expect(inserted('user[at]example')).toBe('');
    expect(inserted('user(@)example')).toBe('');
  });

  it('keeps ordinary text: sentences, times, prices, abbreviations', () => {
    expect(inserted('Hello, I need 3.50 kg at 10:30, e.g. tomorrow. Thanks!')).toBe(
      'Hello, I need 3.50 kg at 10:30, e.g. tomorrow. Thanks!',
    );
    expect(inserted('and/or 50%')).toBe('and/or 50%');
  });

  it('puts a value on one line: line breaks and control characters become spaces', () => {
    expect(inserted('first\r\nsecond\u2028third\u0085fourth\u0000fifth')).toBe(
      'first second third fourth fifth',
    );
  });

  it('cuts a value to 200 characters before looking at it, so a cut link is caught too', () => {
    const long = 'a'.repeat(500);
    expect(Array.from(inserted(long))).toHaveLength(VALUE_CHARS);
    const cutLink = `${'x '.repeat(95)}evil.comxyz`; // cut within the link: "evil.com"
    expect(inserted(cutLink)).toBe('x '.repeat(95).trim());
    expect(Array.from(harmlessValue('😀'.repeat(300)))).toHaveLength(VALUE_CHARS);
  });

  it('names what it refuses in one predicate', () => {
    expect(looksLikeLinkOrAddress('example.org')).toBe(true);
    expect(looksLikeLinkOrAddress('hello')).toBe(false);
  });
});

describe('subject and body', () => {
  it('puts the subject on one line whatever the values or the template hold (no header injection)', () => {
    const subject = renderSubject('Re: {field:topic}\r\nBcc: x\n{name}', {
      formName: 'Contact',
      name: 'Jane\r\nBcc: victim',
      payload: { topic: 'Hi\r\nX-Injected: 1' },
    });
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject).toBe('Re: Hi X-Injected: 1 Bcc: x Jane Bcc: victim');
  });

  it("falls back to the form's name when the subject comes out empty, and stays within 200 characters", () => {
    expect(renderSubject('{field:site}', values({ site: 'https://evil.example' }))).toBe('Contact');
    expect(Array.from(renderSubject(`{form}${'s'.repeat(300)}`, values({})))).toHaveLength(200);
  });

  it("keeps the body's own lines and links (the account's text), and cleans only the values", () => {
    const body = renderBody(
      'Hi {name},\r\nsee https://ours.example\r\n\r\nYou wrote: {field:message}',
      {
        formName: 'Contact',
        name: 'Jane https://evil.example',
        payload: { message: 'call +1 555 or evil@spam.example' },
      },
    );
    expect(body).toBe('Hi Jane,\nsee https://ours.example\n\nYou wrote: call +1 555 or');
  });
});
