import { z } from 'zod';
import { text } from '../kit/answers/text';

const siteKey = text()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .describe("the provider's site key");
const secret = text()
  .trim()
  .min(1, 'must not be empty')
  .max(500)
  .describe(
    "the provider's secret key; write-only. Left out, the stored secret stays (same provider only)",
  );

/** A form's `captcha` as PATCH and POST /api/forms take it (docs/captcha.md). */
export const captchaInput = z
  .discriminatedUnion('provider', [
    z.object({ provider: z.literal('altcha') }).strict(),
    z
      .object({
        provider: z.enum(['turnstile', 'hcaptcha']),
        site_key: siteKey,
        secret: secret.optional(),
      })
      .strict(),
    z
      .object({
        provider: z.literal('recaptcha'),
        site_key: siteKey,
        secret: secret.optional(),
        min_score: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe('reCAPTCHA v3: answers scored below this are refused'),
      })
      .strict(),
  ])
  .nullable()
  .describe(
    'null: no CAPTCHA. `altcha`: self-hosted proof of work; `turnstile`, `hcaptcha`, `recaptcha`: ' +
      'that service, with its site key and secret (docs/captcha.md)',
  )
  .meta({ id: 'CaptchaSettings' });

/** What the Form shows of its captcha: never the secret. */
export const captchaViewSchema = z
  .object({
    provider: z.enum(['altcha', 'turnstile', 'hcaptcha', 'recaptcha']),
    site_key: z.string().optional().describe('third-party providers only'),
    secret_set: z
      .literal(true)
      .optional()
      .describe('third-party providers only: the secret is stored (never shown)'),
    min_score: z.number().optional().describe('reCAPTCHA v3 only'),
  })
  .nullable()
  .describe('the CAPTCHA ingest requires (docs/captcha.md); null: none. The secret is never shown')
  .meta({ id: 'FormCaptcha' });
