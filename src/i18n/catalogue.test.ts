import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { FIELD_PROBLEM_CODES } from '../domain/forms/field-problems';
import { CATALOGUE, messageFormat, translate, type MessageKey } from './catalogue';
import { LANGUAGES, supportedLanguage, textDirection } from './languages';

/** A parsed message's nodes, as intl-messageformat's parser gives them. */
type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }> };

/** The names of a message's placeholders, plural branches included. */
function placeholders(message: string, language: string): string[] {
  const found = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      // 0 is literal text and 7 the `#` of a plural; every other node names an argument.
      if (node.type !== 0 && node.type !== 7) found.add(String(node.value));
      for (const option of Object.values(node.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, language).getAst() as Node[]);
  return [...found].sort();
}

const keys = Object.keys(CATALOGUE.en).sort() as MessageKey[];

describe('the catalogue', () => {
  it.each(LANGUAGES)('%s has exactly the keys of English', (language) => {
    expect(Object.keys(CATALOGUE[language]).sort()).toEqual(keys);
  });

  it.each(LANGUAGES)('%s: every message parses, with the placeholders of English', (language) => {
    for (const key of keys) {
      const message = CATALOGUE[language][key];
      expect(message.trim(), `${language} ${key}`).not.toBe('');
      expect(placeholders(message, language), `${language} ${key}`).toEqual(
        placeholders(CATALOGUE.en[key], 'en'),
      );
    }
  });

  it('every field problem the rules can give has a message in every language', () => {
    const facts = { got: 'Gold', min: 1, max: 5, filename: 'cv.exe', accepted: '.pdf' };
    for (const language of LANGUAGES)
      for (const code of FIELD_PROBLEM_CODES) {
        const key = `field.${code}` as MessageKey;
        expect(CATALOGUE[language][key], `${language} ${key}`).toBeDefined();
        const text = translate(language, key, facts);
        expect(text, `${language} ${key}`).not.toMatch(/[{}]/);
      }
  });

  it('plurals take the forms of the language', () => {
    expect(translate('en', 'field.too_long', { max: 1 })).toBe('must be at most 1 character');
    expect(translate('en', 'field.too_long', { max: 200 })).toBe('must be at most 200 characters');
    expect(translate('pl', 'field.too_long', { max: 1 })).toBe('Wpisz najwyżej 1 znak.');
    expect(translate('pl', 'field.too_long', { max: 3 })).toBe('Wpisz najwyżej 3 znaki.');
    expect(translate('pl', 'field.too_long', { max: 5 })).toBe('Wpisz najwyżej 5 znaków.');
    expect(translate('ar', 'field.too_long', { max: 2 })).toBe('يُرجى ألا يتجاوز النص حرفين.');
  });

  it('the English field messages are the API’s wording of errors, word for word', () => {
    const facts = { got: 'Gold', min: 3, max: 2000, filename: 'cv.exe', accepted: '.pdf, image/*' };
    const english = Object.fromEntries(
      FIELD_PROBLEM_CODES.map((code) => [code, translate('en', `field.${code}`, facts)]),
    );
    expect(english).toEqual({
      required: 'is required',
      must_be_checked: 'must be checked',
      one_value: 'takes one value',
      not_text: 'must be text',
      not_an_option: 'must be one of the options (got "Gold")',
      not_a_number: 'must be a number',
      too_small: 'must be at least 3',
      too_large: 'must be at most 2000',
      too_long: 'must be at most 2000 characters',
      invalid_email: 'must be a valid e-mail address',
      invalid_url: 'must be an http:// or https:// URL',
      invalid_date: 'must be a date as YYYY-MM-DD',
      not_a_file: 'must be sent as a file',
      one_file: 'takes one file',
      file_type: '"cv.exe" is not an accepted type (.pdf, image/*)',
      must_not_be_file: 'must not be a file',
      unknown_field: 'is not a field of this form',
      already_submitted: 'was already used for a submission of this form: each can be sent once',
    });
  });

  it('parses a message once and keeps it', () => {
    expect(messageFormat('de', 'page.submit')).toBe(messageFormat('de', 'page.submit'));
    expect(messageFormat('de', 'page.submit')).not.toBe(messageFormat('fr', 'page.submit'));
  });
});

describe('languages', () => {
  it('writes Arabic and Hebrew right to left, the others left to right', () => {
    const rtl = LANGUAGES.filter((language) => textDirection(language) === 'rtl');
    expect(rtl).toEqual(['ar', 'he']);
  });

  it('takes a tag in any case and gives its canonical form', () => {
    expect(supportedLanguage('DE')).toBe('de');
    expect(supportedLanguage('zh-hans')).toBe('zh-Hans');
    expect(supportedLanguage(' ZH-HANS ')).toBe('zh-Hans');
    expect(supportedLanguage('xx')).toBeNull();
    expect(supportedLanguage('de-AT')).toBeNull();
  });
});
