import { z } from 'zod';
import {
  JWKS_MAX_AGE_SECONDS,
  RECEIPT_KEY_PUBLISHED_FOR_MS,
} from '../../domain/receipts/receipt-keys';
import { defineRoute } from '../kit/routing/define-route';

const receiptKeySchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().describe('the public key, base64url'),
    kid: z.string().describe("the key's RFC 7638 thumbprint, as receipts name it"),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
  })
  .meta({ id: 'ReceiptKey' });

const jwksSchema = z
  .object({ keys: z.array(receiptKeySchema).describe('every key, newest first') })
  .meta({ id: 'ReceiptKeySet' });

/** `GET {ingest_url}/.well-known/jwks.json`: the public keys of receipts (docs/receipts.md). */
export const jwksRoutes = [
  defineRoute({
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'receiptKeys',
    tag: 'Ingest',
    summary: 'The public keys of submission receipts',
    description:
      "A JWK Set (RFC 7517) of the instance's Ed25519 keys: every receipt names its key's " +
      '`kid`. Keys are never taken out, so a receipt signed before a rotation still verifies; ' +
      `a new key is listed here ${RECEIPT_KEY_PUBLISHED_FOR_MS / 60_000} minutes before it signs. Cacheable for ` +
      `${JWKS_MAX_AGE_SECONDS} seconds.`,
    access: 'public',
    server: 'ingest',
    responses: {
      200: {
        description: 'the key set',
        body: jwksSchema,
        headers: { 'Cache-Control': `public, max-age=${JWKS_MAX_AGE_SECONDS}` },
      },
    },
    errors: [],
  }).handle(async (_input, ctx) => ({
    status: 200,
    body: await ctx.receipts.jwks(),
    headers: {
      'Cache-Control': `public, max-age=${JWKS_MAX_AGE_SECONDS}`,
      'Access-Control-Allow-Origin': '*',
    },
  })),
];
