/**
 * The languages a hosted form page can be in (docs/languages.md): BCP 47 tags in their
 * canonical form, each with a catalogue in `messages/`.
 */
export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'pl',
  'ar',
  'he',
  'ja',
  'zh-Hans',
] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language by its own name, as a person looking for it would recognise it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  pt: 'Português',
  pl: 'Polski',
  ar: 'العربية',
  he: 'עברית',
  ja: '日本語',
  'zh-Hans': '简体中文',
};

const BY_LOWER_CASE = new Map<string, Language>(LANGUAGES.map((tag) => [tag.toLowerCase(), tag]));

/** The supported tag `input` names, whatever its case (`DE`, `zh-hans`), or null. */
export const supportedLanguage = (input: string): Language | null =>
  BY_LOWER_CASE.get(input.trim().toLowerCase()) ?? null;

const RIGHT_TO_LEFT = new Set<Language>(['ar', 'he']);

/** The writing direction of a page in `language`: its `dir` attribute. */
export const textDirection = (language: Language): 'rtl' | 'ltr' =>
  RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
