import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { fieldsTooLargeMessage, INGEST_LIMITS } from './limits';

/**
 * Field count, name length, nesting depth and value size limits for JSON payloads (multipart
 * checks its own while streaming). The depth is checked first: only a value within it is
 * measured by JSON.stringify, which recurses.
 */
export function checkPayloadLimits(payload: Record<string, unknown>): {
  tooLarge: string[];
  invalid: string[];
} {
  const tooLarge: string[] = [];
  const invalid: string[] = [];
  const names = Object.keys(payload);
  let total = 0;
  if (names.length > INGEST_LIMITS.fields)
    tooLarge.push(`too many fields: ${names.length} (limit ${INGEST_LIMITS.fields})`);
  for (const name of names) {
    if (name.length === 0) invalid.push('field names must not be empty');
    if (name.length > INGEST_LIMITS.fieldNameChars)
      invalid.push(
        `${name.slice(0, 32)}…: field name longer than ${INGEST_LIMITS.fieldNameChars} characters`,
      );
    const value = payload[name];
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      invalid.push(`${name.slice(0, 64)}: nested deeper than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    // A string is measured as sent; other JSON values by their JSON text.
    const size = Buffer.byteLength(
      typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
    );
    total += Buffer.byteLength(name) + size;
    if (size > INGEST_LIMITS.fieldValueBytes)
      tooLarge.push(
        `${name.slice(0, 64)}: value larger than ${INGEST_LIMITS.fieldValueBytes / 1024} KiB`,
      );
  }
  if (total > INGEST_LIMITS.fieldsBytes) tooLarge.push(fieldsTooLargeMessage);
  return { tooLarge, invalid };
}
