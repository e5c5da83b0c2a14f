import { describe, expect, it } from 'vitest';
import { negotiateLanguage } from './accept-language';

describe('negotiateLanguage', () => {
  it('asks for nothing without a header or without a supported language in it', () => {
    expect(negotiateLanguage(undefined)).toBeNull();
    expect(negotiateLanguage('')).toBeNull();
    expect(negotiateLanguage('sv, fi;q=0.8')).toBeNull();
    expect(negotiateLanguage('*')).toBeNull();
    expect(negotiateLanguage('de;q=0')).toBeNull();
    expect(negotiateLanguage('not a tag!, ;q=1')).toBeNull();
  });

  it('takes the supported language of the highest weight, then the first given', () => {
    expect(negotiateLanguage('fr')).toBe('fr');
    expect(negotiateLanguage('en')).toBe('en');
    expect(negotiateLanguage('sv, de;q=0.5, fr;q=0.7')).toBe('fr');
    expect(negotiateLanguage('de;q=0.5, fr;q=0.5')).toBe('de');
    expect(negotiateLanguage('en;q=0.1, ja')).toBe('ja');
    expect(negotiateLanguage('fr;q=0, de;q=0.2')).toBe('de');
    expect(negotiateLanguage('  it ; q=0.9 , nl ; q=1.0 ')).toBe('nl');
  });

  it('matches a regional tag to its language, in any case', () => {
    expect(negotiateLanguage('de-AT')).toBe('de');
    expect(negotiateLanguage('pt-BR,pt;q=0.9')).toBe('pt');
    expect(negotiateLanguage('EN-gb')).toBe('en');
    expect(negotiateLanguage('he-IL')).toBe('he');
  });

  it('matches simplified Chinese tags to zh-Hans, and not traditional ones', () => {
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-Hans', 'zh-hans-cn', 'ZH-cn'])
      expect(negotiateLanguage(tag), tag).toBe('zh-Hans');
    for (const tag of ['zh-TW', 'zh-HK', 'zh-Hant', 'zh-Hant-TW'])
      expect(negotiateLanguage(tag), tag).toBeNull();
    expect(negotiateLanguage('zh-TW, zh;q=0.8, en;q=0.5')).toBe('zh-Hans');
  });
});
