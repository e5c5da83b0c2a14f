import type { ThirdPartyCaptcha } from '../../db/entities/form-captcha';
import type { AllowList } from '../../outbound/address-policy';
import type { SigningSecretCipher } from '../secrets/signing-secret';
import type { OwnListeners } from '../../outbound/own-listeners';
import { AltchaGuard } from './altcha';
import { CaptchaVerifier } from './captcha-verifier';
import { createSiteVerifier, DEFAULT_VERIFY_URLS } from './siteverify';

/** The forms' CAPTCHA check, wired: ALTCHA keys of their own, the guarded siteverify client. */
export function createCaptchaVerifier(options: {
  appSecret: string;
  secrets: SigningSecretCipher;
  /** CAPTCHA_VERIFY_URL_*: a provider left out uses its own URL. */
  verifyUrls: Partial<Record<ThirdPartyCaptcha, string | undefined>>;
  allowList: AllowList;
  lookupHost: (host: string) => Promise<string[]>;
  ownListeners?: OwnListeners;
  /** The ingest server's host (INGEST_URL): answers from the form's own pages pass. */
  pageHost: () => string;
}): CaptchaVerifier {
  const urls = { ...DEFAULT_VERIFY_URLS };
  for (const [provider, url] of Object.entries(options.verifyUrls))
    if (url) urls[provider as ThirdPartyCaptcha] = url;
  return new CaptchaVerifier({
    altcha: new AltchaGuard(options.appSecret, ' forms'),
    siteVerifier: createSiteVerifier({
      urls,
      allowList: options.allowList,
      lookupHost: options.lookupHost,
      ownListeners: options.ownListeners,
    }),
    secrets: options.secrets,
    pageHost: options.pageHost,
  });
}
