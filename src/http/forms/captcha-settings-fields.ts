import type { CaptchaView } from '../../domain/captcha/captcha-settings';
import { captchaInput } from './captcha-schemas';

/** The CAPTCHA settings form as typed (the secret is never put back into the page). */
export type CaptchaSettingsInput = { provider: string; site_key: string; min_score: string };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** What the form starts with: the stored settings, the secret aside. */
export function captchaSettingsOf(view: CaptchaView | null): CaptchaSettingsInput {
  return {
    provider: view?.provider ?? '',
    site_key: view && 'site_key' in view ? view.site_key : '',
    min_score:
      view && 'min_score' in view && view.min_score !== undefined ? String(view.min_score) : '',
  };
}

/**
 * The posted settings as the API's `captcha` (checked with the API's schema, so the page and
 * PATCH /api/forms/{id} accept the same), or the first problem. An empty secret keeps the
 * stored one; the minimum score counts for reCAPTCHA only.
 */
export function readCaptchaSettings(body: unknown): {
  input: CaptchaSettingsInput;
  result:
    { ok: true; captcha: ReturnType<typeof captchaInput.parse> } | { ok: false; error: string };
} {
  const fields = (body ?? {}) as Record<string, unknown>;
  const input = {
    provider: text(fields.provider),
    site_key: text(fields.site_key),
    min_score: text(fields.min_score),
  };
  const secret = text(fields.secret);
  const candidate =
    input.provider === ''
      ? null
      : input.provider === 'altcha'
        ? { provider: 'altcha' }
        : {
            provider: input.provider,
            site_key: input.site_key,
            ...(secret ? { secret } : {}),
            ...(input.provider === 'recaptcha' && input.min_score !== ''
              ? { min_score: Number(input.min_score) }
              : {}),
          };
  const parsed = captchaInput.safeParse(candidate);
  if (parsed.success) return { input, result: { ok: true, captcha: parsed.data } };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { input, result: { ok: false, error: `${field}${issue.message}` } };
}
