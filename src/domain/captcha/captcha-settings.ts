import type { StoredCaptcha, ThirdPartyCaptcha } from '../../db/entities/form-captcha';
import type { SigningSecretCipher } from '../secrets/signing-secret';

export type { StoredCaptcha, ThirdPartyCaptcha } from '../../db/entities/form-captcha';

/** A form's `captcha` as PATCH takes it; `secret` may be left out to keep the one stored. */
export type CaptchaInput =
  | { provider: 'altcha' }
  | { provider: ThirdPartyCaptcha; site_key: string; secret?: string; min_score?: number };

/** A third-party provider was chosen, but there is no secret to keep: the client must send one. */
export class CaptchaSecretMissingError extends Error {
  override name = 'CaptchaSecretMissingError';
  constructor(readonly provider: ThirdPartyCaptcha) {
    super(`captcha.secret: required when switching to ${provider} (the provider's secret key)`);
  }
}

/** Whether the sealed secret is `secret`; one that no longer opens (APP_SECRET changed) is not. */
function opensTo(cipher: SigningSecretCipher, sealed: string, secret: string): boolean {
  try {
    return cipher.open(sealed) === secret;
  } catch {
    return false;
  }
}

/**
 * The captcha to store for `input`, sealing a new secret. Without a secret, the stored one is
 * kept when the provider stays the same (a new site key or score, the secret unchanged);
 * otherwise CaptchaSecretMissingError. The stored secret sent again is kept as it is sealed.
 */
export function captchaToStore(
  input: CaptchaInput | null,
  current: StoredCaptcha | null | undefined,
  cipher: SigningSecretCipher,
): StoredCaptcha | null {
  if (input === null) return null;
  if (input.provider === 'altcha') return { provider: 'altcha' };
  const keeps = current !== null && current !== undefined && current.provider === input.provider;
  let sealedSecret: string;
  // The same secret sent again keeps its sealed form, so an unchanged captcha compares equal.
  if (keeps && (input.secret === undefined || opensTo(cipher, current.sealedSecret, input.secret)))
    sealedSecret = current.sealedSecret;
  else if (input.secret !== undefined) sealedSecret = cipher.seal(input.secret);
  else throw new CaptchaSecretMissingError(input.provider);
  return {
    provider: input.provider,
    siteKey: input.site_key,
    sealedSecret,
    ...(input.provider === 'recaptcha' && input.min_score !== undefined
      ? { minScore: input.min_score }
      : {}),
  };
}

/** What the API shows of a form's captcha: never the secret, only that one is set. */
export type CaptchaView =
  | { provider: 'altcha' }
  | { provider: ThirdPartyCaptcha; site_key: string; secret_set: true; min_score?: number };

export function captchaView(stored: StoredCaptcha | null | undefined): CaptchaView | null {
  if (!stored) return null;
  if (stored.provider === 'altcha') return { provider: 'altcha' };
  return {
    provider: stored.provider,
    site_key: stored.siteKey,
    secret_set: true,
    ...(stored.minScore !== undefined ? { min_score: stored.minScore } : {}),
  };
}

/**
 * The action our reCAPTCHA v3 widget executes (`grecaptcha.execute(key, {action})`); an answer
 * for any other action is refused (docs/captcha.md).
 */
export const RECAPTCHA_V3_ACTION = 'submit';

/** reCAPTCHA with a least score is v3: no checkbox, a token fetched when the form is sent. */
export const isRecaptchaV3 = (captcha: StoredCaptcha) =>
  captcha.provider === 'recaptcha' && captcha.minScore !== undefined;

/** The body field each provider's widget fills in. */
export const RESPONSE_FIELDS: Record<StoredCaptcha['provider'], string> = {
  altcha: 'altcha',
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha: 'g-recaptcha-response',
};

/** Every widget's field, taken out of the payload of a form with a captcha (hCaptcha fills two). */
const ALL_RESPONSE_FIELDS = new Set(Object.values(RESPONSE_FIELDS));

/**
 * The fields without the CAPTCHA widgets' fields (never stored), and the answer of this
 * form's provider: its text, or undefined when missing or not one text.
 */
export function takeCaptchaResponse(
  stored: StoredCaptcha,
  fields: Record<string, unknown>,
): { fields: Record<string, unknown>; response: string | undefined } {
  const value = fields[RESPONSE_FIELDS[stored.provider]];
  const rest = Object.fromEntries(
    Object.entries(fields).filter(([name]) => !ALL_RESPONSE_FIELDS.has(name)),
  );
  return { fields: rest, response: typeof value === 'string' && value !== '' ? value : undefined };
}
