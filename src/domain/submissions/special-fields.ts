import { z } from 'zod';
import type { SpecialFields } from '../../db/entities/submission';

const emailSchema = z.email();

/** Fields with extra handling; `_hp` is the honeypot, a control field never stored in the payload. */
export const HONEYPOT_FIELD = '_hp';

/**
 * The page-load time (`Date.now()`) the embed markup's script writes, a control field too:
 * ingest turns it into `fill_ms` and never stores it in the payload.
 */
export const FILL_STAMP_FIELD = '_ts';

const firstText = (value: unknown): string | undefined => {
  const single = Array.isArray(value) ? value[0] : value;
  return typeof single === 'string'
    ? single
    : typeof single === 'number'
      ? String(single)
      : undefined;
};

/**
 * Trimmed `name` and `message` and the trimmed, lower-cased `email` (null when none came);
 * an `email` that is present must be a valid address: `errors` says when it is not, and
 * `special` then holds the rest (what a filled honeypot stores, as it is never refused).
 */
export function normalizeSpecialFields(payload: Record<string, unknown>): {
  special: SpecialFields | null;
  errors: string[];
} {
  const special: SpecialFields = {};
  const errors: string[] = [];
  if ('email' in payload) {
    const email = firstText(payload.email)?.trim().toLowerCase() ?? '';
    if (!emailSchema.safeParse(email).success) errors.push('email: must be a valid e-mail address');
    else special.email = email;
  }
  for (const key of ['name', 'message'] as const) {
    const text = firstText(payload[key])?.trim();
    if (text !== undefined) special[key] = text;
  }
  return { special: Object.keys(special).length > 0 ? special : null, errors };
}

/** A filled honeypot is any non-empty value. */
export function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.some(honeypotFilled);
  return String(value).trim() !== '';
}
