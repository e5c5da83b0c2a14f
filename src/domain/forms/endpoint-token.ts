import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Public form tokens: 16 lower-case letters and digits, starting with a letter so a token
 * can never be mistaken for a numeric form id where both are accepted.
 */
export function newEndpointToken(): string {
  const bytes = randomBytes(16);
  let token = ALPHABET[bytes[0]! % 26]!;
  for (let i = 1; i < 16; i++) token += ALPHABET[bytes[i]! % ALPHABET.length];
  return token;
}

export const isNumericId = (value: string) => /^\d{1,18}$/.test(value);

/** True for strings shaped like `newEndpointToken()`'s: anything else cannot name a form. */
export const isEndpointToken = (value: string) => /^[a-z][a-z0-9]{15}$/.test(value);
