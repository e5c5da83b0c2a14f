import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredCaptcha } from '../../db/entities/form-captcha';
import type { SigningSecretCipher } from '../secrets/signing-secret';
import type { AltchaGuard } from './altcha';
import { isRecaptchaV3, RECAPTCHA_V3_ACTION } from './captcha-settings';
import type { SiteVerdict, SiteVerifier } from './siteverify';

/**
 * The form as the check needs it: its token (ALTCHA challenges are bound to it), its captcha,
 * and the domains it accepts posts from (a third-party answer must come from one of them).
 */
export type CaptchaForm = {
  endpointToken: string;
  captcha: StoredCaptcha;
  allowedDomains: readonly string[];
};

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
      /** The host of the ingest server (INGEST_URL), where the form's own pages are. */
      pageHost: () => string;
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
      // With allowed_domains, the widget must have been solved on one of them (or our pages).
      hostnames:
        form.allowedDomains.length > 0 ? [...form.allowedDomains, this.deps.pageHost()] : [],
      action: isRecaptchaV3(captcha) ? RECAPTCHA_V3_ACTION : undefined,
    });
  }

  close(): Promise<void> {
    return this.deps.siteVerifier.close();
  }
}
