/**
 * Text PostgreSQL cannot store in jsonb: the NUL character, and text that is not well-formed
 * Unicode (a lone UTF-16 surrogate, which JSON's `\ud800` escapes and some form charsets can
 * carry). Ingest finds it first and refuses the fields that hold it, by name.
 */

// With the `u` flag a surrogate pair is one code point: `\p{Cs}` matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

const holdsNul = (text: string) => text.includes('\0');
const illFormed = (text: string) => LONE_SURROGATE.test(text);

/** True when a JSON value holds matching text in any string or key, however deep. */
function holds(value: unknown, bad: (text: string) => boolean): boolean {
  if (typeof value === 'string') return bad(value);
  if (Array.isArray(value)) return value.some((inner) => holds(inner, bad));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, inner]) => bad(key) || holds(inner, bad));
  return false;
}

/** A field name as it can be shown in an answer: NUL as `\0`, a lone surrogate as U+FFFD. */
export const shownName = (name: string) =>
  name.replaceAll('\0', '\\0').replace(LONE_SURROGATES, '\uFFFD').slice(0, 64);

const fieldsWhere = (payload: Record<string, unknown>, bad: (text: string) => boolean) =>
  Object.keys(payload).filter((name) => bad(name) || holds(payload[name], bad));

/** The fields whose name or value holds a NUL character (names as stored). */
export const fieldsWithNul = (payload: Record<string, unknown>): string[] =>
  fieldsWhere(payload, holdsNul);

/** The fields whose name or value is not well-formed Unicode (names as stored). */
export const fieldsWithIllFormedText = (payload: Record<string, unknown>): string[] =>
  fieldsWhere(payload, illFormed);
