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

/** The names of the signature headers, as deliveries send them and the dashboard's snippets read them. */
export const SIGNATURE_HEADERS = {
  service: 'x-service-signature',
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** The signature headers of one attempt (docs/webhook-delivery.md, Requests). */
export function signatureHeaders(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    [SIGNATURE_HEADERS.service]: serviceSignature(secret, body),
    [SIGNATURE_HEADERS.id]: deliveryId,
    [SIGNATURE_HEADERS.timestamp]: String(timestampSeconds),
    [SIGNATURE_HEADERS.signature]: standardWebhookSignature(
      secret,
      deliveryId,
      timestampSeconds,
      body,
    ),
  };
}
