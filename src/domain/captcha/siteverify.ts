import type { ThirdPartyCaptcha } from '../../db/entities/form-captcha';
import { hostInDomains } from '../forms/allowed-domains';
import type { AllowList } from '../../outbound/address-policy';
import type { OwnListeners } from '../../outbound/own-listeners';
import { createOutboundSender } from '../../outbound/sender';

/** The providers' own verification endpoints (CAPTCHA_VERIFY_URL_* replace them). */
export const DEFAULT_VERIFY_URLS: Record<ThirdPartyCaptcha, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** How long a provider has to answer before the submission is kept as spam for review. */
export const VERIFY_DEADLINE_MS = 5_000;

/** What the provider said: passed, refused (with why), or nothing usable in time. */
export type SiteVerdict =
  | { outcome: 'passed' }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unverified'; reason: string };

export type SiteVerifyRequest = {
  provider: ThirdPartyCaptcha;
  secret: string;
  response: string;
  remoteIp: string | null;
  /** reCAPTCHA v3: a `score` below this is refused. */
  minScore?: number;
  /**
   * Where the widget may have been solved: the answer's `hostname` must be one of these or a
   * subdomain of one. Empty: any host (a form without `allowed_domains`).
   */
  hostnames: readonly string[];
  /** reCAPTCHA v3: the `action` the answer must name (the one our widget executes). */
  action?: string;
};

const ANSWER_BYTES = 16_384;

/**
 * Verifies a widget's response token with its provider: `secret`, `response` and `remoteip`
 * posted form-encoded to the siteverify URL through the one outbound sender (HTTPS only, the
 * private-address guard, never this service itself), all within VERIFY_DEADLINE_MS.
 * Never throws.
 */
export function createSiteVerifier(options: {
  urls: Record<ThirdPartyCaptcha, string>;
  allowList: AllowList;
  lookupHost: (host: string) => Promise<string[]>;
  ownListeners?: OwnListeners;
  deadlineMs?: number;
}) {
  const deadlineMs = options.deadlineMs ?? VERIFY_DEADLINE_MS;
  // One deadline for connect, headers and body together, as before the one sender.
  const sender = createOutboundSender({
    connectTimeoutMs: deadlineMs,
    readTimeoutMs: deadlineMs,
    deadlineMs,
    allowList: options.allowList,
    lookupHost: options.lookupHost,
    ownListeners: options.ownListeners,
  });
  return {
    async verify(input: SiteVerifyRequest): Promise<SiteVerdict> {
      const form = new URLSearchParams({ secret: input.secret, response: input.response });
      if (input.remoteIp) form.set('remoteip', input.remoteIp);
      const sent = await sender.send({
        url: options.urls[input.provider],
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        // One byte past the limit tells a larger answer from one that fits.
        maxResponseBytes: ANSWER_BYTES + 1,
      });
      if (sent.statusCode === null)
        return unverified(`${input.provider} could not be reached: ${sent.error ?? 'no answer'}`);
      if (sent.statusCode !== 200)
        return unverified(`${input.provider} answered HTTP ${sent.statusCode}`);
      if (Buffer.byteLength(sent.responseBody ?? '') > ANSWER_BYTES)
        return unverified(
          `${input.provider} could not be reached: the answer is larger than ${ANSWER_BYTES} bytes`,
        );
      let answer: unknown;
      try {
        answer = JSON.parse(sent.responseBody ?? '');
      } catch (error) {
        return unverified(`${input.provider} could not be reached: ${(error as Error).message}`);
      }
      return judge(input, answer);
    },
    close: () => sender.close(),
  };
}

export type SiteVerifier = ReturnType<typeof createSiteVerifier>;

const unverified = (reason: string): SiteVerdict => ({ outcome: 'unverified', reason });

const refused = (reason: string): SiteVerdict => ({ outcome: 'refused', reason });

/**
 * The provider's JSON: `success`, `error-codes`, `hostname` (where the widget was solved), and
 * reCAPTCHA v3's `score` and `action`. A solved answer from another site's page, or for
 * another action, is refused: a token is only worth something on the form it was made for.
 */
function judge(input: SiteVerifyRequest, answer: unknown): SiteVerdict {
  if (typeof answer !== 'object' || answer === null || !('success' in answer))
    return unverified(`${input.provider} answered without a "success" field`);
  const body = answer as {
    success: unknown;
    score?: unknown;
    hostname?: unknown;
    action?: unknown;
    'error-codes'?: unknown;
  };
  if (body.success !== true) {
    const codes = Array.isArray(body['error-codes']) ? body['error-codes'].map(String) : [];
    const why = codes.length > 0 ? ` (${codes.join(', ').slice(0, 200)})` : '';
    return refused(`the CAPTCHA was not solved${why}`);
  }
  if (input.minScore !== undefined) {
    const score = typeof body.score === 'number' ? body.score : null;
    if (score === null || score < input.minScore)
      return {
        outcome: 'refused',
        reason:
          score === null
            ? 'the CAPTCHA answer has no score'
            : `the CAPTCHA score ${score} is below ${input.minScore}`,
      };
  }
  if (input.hostnames.length > 0) {
    const host = typeof body.hostname === 'string' ? body.hostname : '';
    if (!host || !hostInDomains(input.hostnames, host))
      return refused(
        host
          ? `the CAPTCHA was solved on ${host.slice(0, 100)}, not on a site this form accepts (allowed_domains)`
          : 'the CAPTCHA answer names no hostname, and this form accepts only its allowed_domains',
      );
  }
  if (input.action !== undefined && body.action !== input.action) {
    const named = typeof body.action === 'string' ? `"${body.action.slice(0, 100)}"` : 'no action';
    return refused(`the CAPTCHA answer is for ${named}, not the form's "${input.action}"`);
  }
  return { outcome: 'passed' };
}
