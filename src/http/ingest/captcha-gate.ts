import type { Request } from 'express';
import { takeCaptchaResponse } from '../../domain/captcha/captcha-settings';
import type { IngestForm } from '../../domain/forms/form-cache';
import type { NewSubmission } from '../../domain/submissions/store-submission';
import type { RouteContext } from '../routing/define-route';
import { clientAddress } from './client-address';
import { captchaFailed } from './ingest-refusals';

/**
 * A form's CAPTCHA at ingest (docs/captcha.md): the widgets' fields taken out of the payload
 * (never stored), and `check`, run before the insert, which throws captcha_failed on a missing
 * or refused answer and marks the submission spam (`captcha_unverified`) when the provider
 * could not be reached in time. A form without a captcha, or an exempt test run, passes as is.
 */
export function captchaGate(
  req: Request,
  ctx: RouteContext,
  form: IngestForm,
  fields: Record<string, unknown>,
  exempt: boolean,
) {
  const captcha = form.captcha;
  if (!captcha) return { fields, check: async (_submission: NewSubmission) => {} };
  const taken = takeCaptchaResponse(captcha, fields);
  return {
    fields: taken.fields,
    async check(submission: NewSubmission): Promise<void> {
      if (exempt) return;
      const verdict = await ctx.captcha.verify(
        req.em,
        { endpointToken: form.endpointToken, captcha, allowedDomains: form.allowedDomains },
        taken.response,
        clientAddress(req),
      );
      if (verdict.outcome === 'refused') throw captchaFailed(verdict.reason);
      if (verdict.outcome === 'unverified') {
        ctx.logger.warn(
          { formId: form.id, reason: verdict.reason },
          'CAPTCHA not verified: the submission is kept as spam for review',
        );
        submission.spamReason ??= 'captcha_unverified';
        submission.files = []; // spam keeps no file bytes
      }
    },
  };
}
