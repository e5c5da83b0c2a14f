import { describe, expect, it } from 'vitest';
import { embedHtml } from '../../src/http/forms/embed-html';
import {
  MAX_FILL_MS,
  MIN_FILL_MS,
  filledTooFast,
  fillMsFromStamp,
} from '../../src/domain/spam/fill-time';
import { MAX_LINKS, countLinks, hasTooManyLinks } from '../../src/domain/spam/links';
import { findMarkup } from '../../src/domain/spam/markup';
import { SPAM_PHRASES, findSpamPhrase } from '../../src/domain/spam/phrases';
import { contentSpamReason } from '../../src/domain/spam/rules';
import { submittedText } from '../../src/domain/spam/submitted-text';

describe('submittedText', () => {
  it('collects strings at any depth, in order, and nothing else', () => {
    const texts = submittedText(
      {
        name: 'Ada',
        age: 36,
        tags: ['a', 'b', ['c', { d: 'd' }]],
        nested: { deeper: { note: 'hi' }, ok: true, none: null },
        last: 'z',
      },
      '7',
    );
    expect(texts).toEqual(['Ada', 'a', 'b', 'c', 'd', 'hi', 'z']);
  });

  it("skips this submission's own upload entries but not look-alikes", () => {
    const upload = {
      filename: 'cv.pdf',
      content_type: 'application/pdf',
      size: 10,
      url: 'https://forms.example/api/submissions/42/files/3',
    };
    const otherSubmission = { ...upload, url: 'https://forms.example/api/submissions/41/files/3' };
    expect(submittedText({ cv: upload, more: [upload] }, '42')).toEqual([]);
    expect(submittedText({ cv: otherSubmission }, '42')).toEqual([
      'cv.pdf',
      'application/pdf',
      'https://forms.example/api/submissions/41/files/3',
    ]);
  });

  it('survives a huge array', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => (i === 499_999 ? 'last' : 1));
    expect(submittedText({ many }, '1')).toEqual(['last']);
  });

  it('survives a deeply nested JSON body', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(submittedText({ deep }, '1')).toEqual(['bottom']);
  });
});

describe('too many links', () => {
  it(`allows ${MAX_LINKS} links in all and refuses one more`, () => {
    expect(MAX_LINKS).toBe(3);
    const three = ['see https://a.example and http://b.example', 'www.c.example'];
    expect(countLinks(three)).toBe(3);
    expect(hasTooManyLinks(three)).toBe(false);
    const four = [...three, 'ftp://d.example/file'];
    expect(countLinks(four)).toBe(4);
    expect(hasTooManyLinks(four)).toBe(true);
  });

  it('counts a URL with www once, and is case-insensitive', () => {
    expect(countLinks(['HTTPS://WWW.EXAMPLE.COM/path?q=1'])).toBe(1);
    expect(countLinks(['Www.a.example WWW.b.example http://c.example https://d.example'])).toBe(4);
  });

  it('does not count bare domains or e-mail addresses', () => {
    expect(countLinks(['mail ada@example.com, see example.com, node.js, vue.js, a.b.c'])).toBe(0);
  });
});

describe('spam phrases', () => {
  it('finds each listed phrase, case-insensitively', () => {
    for (const phrase of SPAM_PHRASES) {
      expect(findSpamPhrase([`Hello, ${phrase.toUpperCase()} here`])).toBe(phrase);
    }
  });

  it('accepts plurals and hyphens, underscores or extra spaces between words', () => {
    expect(findSpamPhrase(['Top online casinos of 2026'])).toBe('casino');
    expect(findSpamPhrase(['Cheap SEO-services for your site'])).toBe('seo service');
    expect(findSpamPhrase(['a great crypto_investment'])).toBe('crypto investment');
    expect(findSpamPhrase(['crypto \n  investment'])).toBe('crypto investment');
    expect(findSpamPhrase(['get to the first page of Google'])).toBe('first page of google');
  });

  it('folds fullwidth look-alike letters', () => {
    expect(findSpamPhrase(['ｖｉａｇｒａ'])).toBe('viagra');
  });

  it('ignores the words inside longer words and the harmless parts alone', () => {
    expect(findSpamPhrase(['We met at the Casinotheque and the Bocasino bar'])).toBeNull();
    expect(
      findSpamPhrase(['Our SEO team offers services; I like crypto; investment tips']),
    ).toBeNull();
    expect(findSpamPhrase(['backlinking strategy', 'cialisfan'])).toBeNull();
    expect(findSpamPhrase([])).toBeNull();
  });
});

describe('markup', () => {
  it.each([
    ['<script>alert(1)</script>', '<script>'],
    ['<SCRIPT src="https://x.example/a.js">', '<script>'],
    ['<iframe src="https://x.example">', '<iframe>'],
    ['<object data="x.swf">', '<object>'],
    ['<embed src="x.swf">', '<embed>'],
    ['Visit <a href="https://x.example">us</a>', '<a href>'],
    ['<a\n  class="x"\n  HREF = "https://x.example">', '<a href>'],
    ['<img src=x onerror=alert(1)>', 'on*= event handler'],
    ['<div onMouseOver="steal()">hover</div>', 'on*= event handler'],
    ['<form action="javascript:alert(1)">', 'javascript: URL in a tag'],
    ['[url=https://x.example]cheap[/url]', '[url] BBCode'],
    ['[URL]https://x.example[/URL]', '[url] BBCode'],
    ['[link=https://x.example]here[/link]', '[link] BBCode'],
    ['[img]https://x.example/a.png[/img]', '[img] BBCode'],
  ])('finds %j', (text, what) => {
    expect(findMarkup(['clean', text])).toBe(what);
  });

  it.each([
    'if a < b and c > d then 1 <= 2',
    'I <3 your product',
    'Write to <ada@example.com>',
    '< script > is just text with spaces',
    'online = yes; once=twice; onion=3',
    'I code in JavaScript: it is fun',
    'a <b>bold</b> and <i>italic</i> word, <abbr title="x">x</abbr>',
    '[quote]hi[/quote] and [b]bold[/b]',
    'Use <p> tags for paragraphs and an <a> element for links',
  ])('leaves plain text alone: %j', (text) => {
    expect(findMarkup([text])).toBeNull();
  });
});

describe('fill time', () => {
  const now = 1_790_000_000_000;

  it('is the time between the page-load stamp and receipt', () => {
    expect(fillMsFromStamp(String(now - 12_345), now)).toBe(12_345);
    expect(fillMsFromStamp(` ${now - 1_000} `, now)).toBe(1_000);
    expect(fillMsFromStamp(now - 500, now)).toBe(500); // JSON clients may send a number
    expect(fillMsFromStamp(`${now - 2_000}.6`, now)).toBe(1_999);
    expect(fillMsFromStamp(String(now), now)).toBe(0);
    expect(fillMsFromStamp(String(now - MAX_FILL_MS), now)).toBe(MAX_FILL_MS);
  });

  it.each([
    ['missing', undefined],
    ['empty (no JavaScript)', ''],
    ['blank', '   '],
    ['text', 'soon'],
    ['a date string', '2026-11-23T10:00:00Z'],
    ['negative', '-1000'],
    ['exponent', '1e12'],
    ['hexadecimal', '0x1A'],
    ['in the future', String(now + 1)],
    ['older than a day', String(now - MAX_FILL_MS - 1)],
    ['zero (epoch)', '0'],
    ['a repeated field', [String(now - 10_000), String(now - 10_000)]],
    ['an object', { ts: now }],
    ['a non-finite number', Number.POSITIVE_INFINITY],
    ['huge digits', '9'.repeat(40)],
  ])('is unknown when the stamp is %s', (_what, stamp) => {
    expect(fillMsFromStamp(stamp, now)).toBeNull();
  });

  it(`is too fast below ${MIN_FILL_MS} ms only`, () => {
    expect(MIN_FILL_MS).toBe(3_000);
    expect(filledTooFast(0)).toBe(true);
    expect(filledTooFast(2_999)).toBe(true);
    expect(filledTooFast(3_000)).toBe(false);
    expect(filledTooFast(60_000)).toBe(false);
    expect(filledTooFast(null)).toBe(false);
  });
});

describe('contentSpamReason', () => {
  const clean = {
    texts: ['Ada', 'ada@example.com', 'Hello, see https://ada.example'],
    fillMs: 20_000,
  };

  it('is null for an ordinary submission, and when the fill time is unknown', () => {
    expect(contentSpamReason(clean)).toBeNull();
    expect(contentSpamReason({ ...clean, fillMs: null })).toBeNull();
  });

  it('names the rule that matched', () => {
    const links = ['http://1.example http://2.example http://3.example http://4.example'];
    expect(contentSpamReason({ texts: links, fillMs: null })).toBe('too_many_links');
    expect(contentSpamReason({ texts: ['Best SEO services'], fillMs: null })).toBe('spam_phrase');
    expect(contentSpamReason({ texts: ['<script>x()</script>'], fillMs: null })).toBe('markup');
    expect(contentSpamReason({ ...clean, fillMs: 1_200 })).toBe('too_fast');
  });

  it('tries the rules in order: links, phrases, markup, fill time', () => {
    const everything = {
      texts: [
        '[url=http://1.example]casino[/url] http://2.example http://3.example http://4.example',
      ],
      fillMs: 10,
    };
    expect(contentSpamReason(everything)).toBe('too_many_links');
    expect(contentSpamReason({ texts: ['<script>casino</script>'], fillMs: 10 })).toBe(
      'spam_phrase',
    );
    expect(contentSpamReason({ texts: ['<script>x</script>'], fillMs: 10 })).toBe('markup');
  });
});

describe('embed markup', () => {
  const html = embedHtml({
    name: 'Contact',
    token: 'tok',
    submissionUrl: 'https://i.example/f/tok',
  });

  it('carries an empty hidden _ts and an inline script that stamps it', () => {
    expect(html).toMatch(/<input type="hidden" name="_ts" value="">/);
    expect(html).toMatch(/<script>[^<]*Date\.now\(\)[^<]*<\/script>/);
    expect(html.indexOf('name="_ts"')).toBeLessThan(html.indexOf('</form>'));
  });

  it('the inline script writes the current time into the enclosing form only', () => {
    const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
    const ts = { value: '' };
    const form = {
      querySelector: (selector: string) => (selector === 'input[name="_ts"]' ? ts : null),
    };
    const currentScript = { closest: (selector: string) => (selector === 'form' ? form : null) };
    const before = Date.now();
    new Function('document', script)({ currentScript });
    expect(Number(ts.value)).toBeGreaterThanOrEqual(before);
    expect(Number(ts.value)).toBeLessThanOrEqual(Date.now());
    // Without currentScript (very old browsers) it does nothing rather than throw.
    expect(() => new Function('document', script)({ currentScript: null })).not.toThrow();
  });
});
