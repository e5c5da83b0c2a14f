import { HttpError } from '../kit/errors/http-error';
import { altchaWidgetScript } from './altcha-widget-script';
import { clientAddress } from '../kit/middleware/client-address';
import { setIngestCors } from './cors';
import { rateLimitSubject } from './rate-limit-key';
import { limitsOf } from './rate-limiter';
import { defineRoute } from '../kit/routing/define-route';

/**
 * What a pasted form with a CAPTCHA loads from the ingest server (docs/captcha.md): its ALTCHA
 * challenges and the ALTCHA widget script. Third-party widgets load from their providers.
 */
export const captchaIngestRoutes = [
  defineRoute({
    method: 'get',
    path: '/f/{endpoint_token}/challenge',
    operationId: 'altchaChallenge',
    tag: 'Ingest',
    summary: "A new ALTCHA challenge for the form's widget",
    description:
      'For forms with `captcha: {"provider": "altcha"}` (docs/captcha.md): a signed proof-of-work ' +
      'challenge for this form, valid for 10 minutes and accepted once; as many a minute per ' +
      'client as INGEST_RATE_LIMIT allows posts (429 `rate_limited` beyond). The widget of ' +
      '`embed_html` fetches it; any origin may (CORS).',
    access: 'public',
    server: 'ingest',
    responses: {
      200: {
        description: 'the challenge (JSON, as the ALTCHA widget reads it)',
        content: 'application/json',
      },
    },
    errors: ['not_found', 'not_active', 'rate_limited'],
    onRequest: setIngestCors,
  }).handle(async ({ req, params }, ctx) => {
    const form = await ctx.forms.byToken(() => req.em, params.endpoint_token);
    if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
    if (!form.isActive) throw new HttpError('not_active', 'this form is not accepting submissions');
    if (form.captcha?.provider !== 'altcha')
      throw new HttpError('not_found', 'this form does not use ALTCHA');
    // Each challenge costs a key derivation: a client gets as many as it may post.
    limitsOf(ctx).countChallenge(rateLimitSubject(clientAddress(req)), form.id);
    const challenge = await ctx.captcha.challenge(form.endpointToken);
    return {
      status: 200,
      content: JSON.stringify(challenge),
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/f/{endpoint_token}/altcha.js',
    operationId: 'altchaWidgetScript',
    tag: 'Ingest',
    summary: 'The ALTCHA widget script',
    description:
      "The `altcha` package's browser build, which `embed_html` loads for a form with ALTCHA, " +
      'so a pasted form needs no third party.',
    access: 'public',
    server: 'ingest',
    responses: {
      200: { description: 'JavaScript, cacheable for an hour', content: 'application/javascript' },
    },
    errors: ['not_found'],
  }).handle(async ({ req, params }, ctx) => {
    const form = await ctx.forms.byToken(() => req.em, params.endpoint_token);
    if (!form) throw new HttpError('not_found', 'no form has this endpoint token');
    return {
      status: 200,
      content: altchaWidgetScript(),
      headers: {
        'Content-Type': 'application/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=3600',
        'Access-Control-Allow-Origin': '*',
      },
    };
  }),
];
