import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredCaptcha } from '../../db/entities/form-captcha';
import type { SigningSecretCipher } from '../plugins/signing-secret';
import type { AltchaGuard } from './altcha';
import type { SiteVerdict, SiteVerifier } from './siteverify';

/** The form as the check needs it: its token (ALTCHA challenges are bound to it) and captcha. */
export type CaptchaForm = { endpointToken: string; captcha: StoredCaptcha };

/**
 * The CAPTCHA check of a submission (docs/captcha.md): ALTCHA here (a solved challenge of
 * this form, used once), a third-party token with its provider. `refused` is answered 422
 * `captcha_failed`; `unverified` (the provider did not answer in time) keeps the submission
 * as spam for review.
 */
export class CaptchaVerifier {
  constructor(
    private readonly deps: {
      altcha: AltchaGuard;
      siteVerifier: SiteVerifier;
      secrets: SigningSecretCipher;
    },
  ) {}

  /** A challenge for the form's ALTCHA widget, valid for this form only (`now`: tests of expiry). */
  challenge(endpointToken: string, now?: number) {
    return this.deps.altcha.challenge({ form: endpointToken }, now);
  }

  async verify(
    em: EntityManager,
    form: CaptchaForm,
    response: string | undefined,
    remoteIp: string | null,
  ): Promise<SiteVerdict> {
    const { captcha } = form;
    if (captcha.provider === 'altcha') {
      const reason = await this.deps.altcha.refusal(em, response, { form: form.endpointToken });
      return reason === null ? { outcome: 'passed' } : { outcome: 'refused', reason };
    }
    if (response === undefined)
      return { outcome: 'refused', reason: 'the CAPTCHA was not completed' };
    return this.deps.siteVerifier.verify({
      provider: captcha.provider,
      secret: this.deps.secrets.open(captcha.sealedSecret),
      response,
      remoteIp,
      minScore: captcha.minScore,
    });
  }

  close(): Promise<void> {
    return this.deps.siteVerifier.close();
  }
}
