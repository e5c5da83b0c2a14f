/** The third-party CAPTCHA services a form may use (docs/captcha.md). */
export const THIRD_PARTY_CAPTCHAS = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type ThirdPartyCaptcha = (typeof THIRD_PARTY_CAPTCHAS)[number];

/**
 * A form's CAPTCHA as stored in `forms.captcha` (jsonb): ALTCHA needs nothing, a third-party
 * service its site key and its secret, sealed (SigningSecretCipher) so a database copy alone
 * cannot verify with it; reCAPTCHA v3 a least score.
 */
export type StoredCaptcha =
  | { provider: 'altcha' }
  | {
      provider: ThirdPartyCaptcha;
      siteKey: string;
      sealedSecret: string;
      minScore?: number;
    };
