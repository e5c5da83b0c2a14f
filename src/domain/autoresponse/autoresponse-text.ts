// Pure: the autoresponse's merge tags and the cleaning of submitted values (docs/autoresponse.md).
// The values are written by strangers and Formward mails the result to an address the stranger
// chose, so a value is plain text, one line, short, and without anything a mail client (or a
// reader) could take for a link or an address.

/** A form's autoresponse as PATCH /api/forms/{id} takes it and the Form shows it. */
export type Autoresponse = { subject: string; body: string; reply_to: string | null };

/** What the merge tags read: the form's name and the submission's fields. */
export type MergeValues = {
  formName: string;
  /** The submission's `name` field (trimmed at ingest); null when it had none. */
  name: string | null;
  payload: Record<string, unknown>;
};

/** How much of one submitted value is inserted. */
export const VALUE_CHARS = 200;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;

/** `{form}`, `{name}`, `{field:NAME}`; any other `{word}` or `{word:…}` is an unknown tag. */
const TAG = /\{([A-Za-z_][\w-]*)(?::([^{}\r\n]{0,128}))?\}/g;

/** Control characters and line/paragraph separators: they break lines, so they become spaces. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
/**
 * Format characters (zero-width, direction overrides, tag characters), variation selectors and
 * blank fillers: invisible, so they go, and a word they split (`evil\u200b.com`) is whole again.
 */
const INVISIBLE = /\p{Cf}|\p{Variation_Selector}|[\u115F\u3164\uFFA0]|\u1160/gu;
/** Dots a resolver or a reader takes as one: ideographic, fullwidth, halfwidth, and defanged. */
const DOT_LOOKALIKES = /[\u3002\uFF0E\uFF61\u2024\u00B7\u2022\u2027\u0701\u0702]/gu;
const DEFANGED_DOT = /[[({<]\s*(?:\.|dot)\s*[\])}>]/giu;
const DEFANGED_AT = /[[({<]\s*(?:@|at)\s*[\])}>]/giu;

/** A scheme and something after it: `http://x`, `hxxps://x`, `mailto:x`, `javascript:x`, `tel:1`. */
const SCHEME = /(?:^|[^\p{L}\p{N}])[\p{L}][\p{L}\p{N}+.-]*:[^\s]/u;
/** A host name: labels joined by dots, the last one a top-level domain (letters, or `xn--…`). */
const HOST =
  /[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}_-]*[\p{L}\p{N}\p{M}])?\.(?:xn--[a-z0-9-]+|\p{L}[\p{L}\p{M}]+)(?![\p{L}\p{N}\p{M}])/iu;
/** A dotted IPv4 address, or dotted numbers followed by a port or a path (`127.1:80`, `10.1/x`). */
const IPV4 = /\d{1,3}(?:\.\d{1,3}){3}|\d+(?:\.\d+)+[:/]/u;

/** Whether one word (no whitespace) could become a link or an address. */
export function looksLikeLinkOrAddress(word: string): boolean {
  return (
    word.includes('@') ||
    word.includes('//') ||
    word.includes('\\\\') ||
    /^www\d*\./iu.test(word) ||
    SCHEME.test(word) ||
    HOST.test(word) ||
    IPV4.test(word)
  );
}

/** Code points, not UTF-16 units: a cut never splits a character in two. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}

/** A submitted value (string, number, boolean, or a list of them) as text; anything else: none. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(valueText).filter(Boolean).join(', ');
  return '';
}

/**
 * One submitted value as the autoresponse inserts it: compatibility forms folded (NFKC turns
 * fullwidth `ｅｖｉｌ．ｃｏｍ` into `evil.com`), invisible characters and line breaks made
 * spaces, cut to VALUE_CHARS characters, then every word that looks like a URL, a host name or
 * an e-mail address left out, and the spaces collapsed.
 */
export function harmlessValue(value: unknown): string {
  const folded = cut(valueText(value), VALUE_CHARS * 2)
    .normalize('NFKC')
    .replace(BREAKS, ' ')
    .replace(INVISIBLE, '')
    .replace(DOT_LOOKALIKES, '.')
    .replace(DEFANGED_DOT, '.')
    .replace(DEFANGED_AT, '@');
  const words = cut(folded, VALUE_CHARS)
    .split(/\s+/u)
    .filter((word) => word !== '' && !looksLikeLinkOrAddress(word));
  return words.join(' ');
}

/** The text of one tag; an unknown tag (or `{field:}` without a name) is left out. */
function tagValue(tag: string, argument: string | undefined, values: MergeValues): string {
  if (argument === undefined && tag === 'form') return values.formName;
  if (argument === undefined && tag === 'name') return harmlessValue(values.name ?? '');
  if (tag === 'field' && argument) {
    const field = argument.trim();
    return Object.hasOwn(values.payload, field) ? harmlessValue(values.payload[field]) : '';
  }
  return '';
}

/** A template with its merge tags filled in. */
export function mergeTags(template: string, values: MergeValues): string {
  return template.replace(TAG, (_match, tag: string, argument: string | undefined) =>
    tagValue(tag, argument, values),
  );
}

/**
 * The subject as sent: tags filled in, on one line (no header injection), spaces collapsed,
 * at most SUBJECT_MAX characters; empty, the form's name stands in.
 */
export function renderSubject(template: string, values: MergeValues): string {
  const oneLine = (text: string) => text.replace(BREAKS, ' ').replace(/\s+/gu, ' ').trim();
  const subject = oneLine(mergeTags(template, values)) || oneLine(values.formName);
  return cut(subject, SUBJECT_MAX);
}

/** The body as sent (plain text): tags filled in, line ends as `\n`. */
export function renderBody(template: string, values: MergeValues): string {
  return mergeTags(template.replace(/\r\n?/gu, '\n'), values);
}

/** What the dashboard's preview fills the tags with. */
export function sampleValues(formName: string): MergeValues {
  return {
    formName,
    name: 'Jane Doe',
    payload: {
      name: 'Jane Doe',
      email: 'jane@example.com',
      message: 'Hello, I would like to know more.',
    },
  };
}
