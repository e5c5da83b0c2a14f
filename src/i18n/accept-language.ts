import { LANGUAGES, supportedLanguage, type Language } from './languages';

/** Tags of Chinese written in simplified characters: what `zh-Hans` answers for. */
const SIMPLIFIED_CHINESE = new Set(['zh', 'zh-cn', 'zh-sg', 'zh-hans', 'zh-my']);

/** The supported language a single tag of a request asks for, or null. */
function languageOfTag(tag: string): Language | null {
  const lower = tag.toLowerCase();
  const exact = supportedLanguage(lower);
  if (exact) return exact;
  if (SIMPLIFIED_CHINESE.has(lower) || lower.startsWith('zh-hans-')) return 'zh-Hans';
  // Another Chinese script or region (zh-Hant, zh-TW, zh-HK) is not simplified Chinese.
  if (lower.startsWith('zh-')) return null;
  // A regional variant (de-AT, pt-BR, en-GB) asks for its language.
  const primary = lower.split('-')[0]!;
  return LANGUAGES.find((language) => language === primary) ?? null;
}

const TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The best supported language of an `Accept-Language` header (RFC 9110 §12.5.4): entries by
 * their `q` (highest first, then in the order given), each matched to the supported set as
 * itself or by its primary language (`de-AT` → `de`, `zh-CN` → `zh-Hans`). `*`, `q=0` and
 * malformed entries ask for nothing. Null when no entry asks for a supported language.
 *
 * Express's `req.acceptsLanguages()` matches by prefix only, so `zh-CN` would never find
 * `zh-Hans`, and `*` would pick the first language offered.
 */
export function negotiateLanguage(header: string | undefined | null): Language | null {
  if (!header) return null;
  const asked: { language: Language; q: number; index: number }[] = [];
  header.split(',').forEach((entry, index) => {
    const [tag = '', ...params] = entry.split(';').map((part) => part.trim());
    if (!TAG.test(tag)) return;
    let q = 1;
    for (const param of params) {
      const quality = QUALITY.exec(param.replace(/\s+/g, ''));
      if (quality) q = Number(quality[1]);
      else if (/^q=/i.test(param)) q = 0;
    }
    const language = q > 0 ? languageOfTag(tag) : null;
    if (language) asked.push({ language, q, index });
  });
  asked.sort((a, b) => b.q - a.q || a.index - b.index);
  return asked[0]?.language ?? null;
}
