import { randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 24 random bytes, the Standard Webhooks secret format. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
