import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: hex HMAC-SHA256 of the raw body, keyed with the whole secret string. */
export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed with the base64 bytes after the `whsec_` prefix, so receivers can use the standard
 * libraries with the secret exactly as we issued it.
 */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const digest = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}
