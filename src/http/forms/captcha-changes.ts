import type { StoredCaptcha } from '../../domain/captcha/captcha-settings';
import {
  captchaToStore,
  CaptchaSecretMissingError,
  type CaptchaInput,
} from '../../domain/captcha/captcha-settings';
import type { SigningSecretCipher } from '../../domain/secrets/signing-secret';
import { validationFailed } from '../kit/errors/http-error';

/**
 * A create/update body's `captcha` as the form's change (its secret sealed), or nothing when
 * it was not sent. A third-party provider without a secret to keep is 422 `validation_failed`.
 */
export function captchaChanges(
  input: CaptchaInput | null | undefined,
  current: StoredCaptcha | null | undefined,
  cipher: SigningSecretCipher,
): { captcha?: StoredCaptcha | null } {
  if (input === undefined) return {};
  try {
    return { captcha: captchaToStore(input, current, cipher) };
  } catch (error) {
    if (error instanceof CaptchaSecretMissingError) throw validationFailed([error.message]);
    throw error;
  }
}
