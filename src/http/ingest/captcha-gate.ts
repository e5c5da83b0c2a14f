import type { Request } from 'express';
import { takeCaptchaResponse } from '../../domain/captcha/captcha-settings';
import type { SiteVerdict } from '../../domain/captcha/siteverify';
import { formPostingDomains } from '../../domain/forms/allowed-domains';
import type { IngestForm } from '../../domain/forms/form-cache';
import type { CaptchaVerdict } from '../../domain/submissions/prepare-submission';
import type { RouteContext } from '../kit/routing/define-route';
import { clientAddress } from '../kit/middleware/client-address';
import { captchaFailed } from './ingest-refusals';
import type { FileAdmission } from './parse-form-body';

/** Said when a file part comes before the CAPTCHA's field: no file is written unchecked. */
export const CAPTCHA_BEFORE_FILES =
  'the CAPTCHA must come before the files (put the CAPTCHA widget above the file inputs of the form)';

export type CaptchaGate = ReturnType<typeof captchaGate>;

/**
 * A form's CAPTCHA at ingest (docs/captcha.md). `beforeFiles` runs at a multipart body's first
 * file, with the fields read so far: it checks the CAPTCHA there, so no file is written
 * before it passed (refused or missing: captcha_failed; the provider out of reach: the files
 * are read to nowhere, as spam keeps none). `take` takes the widgets' fields out of the
 * payload (never stored), and its `verdict`, asked before the insert, checks the CAPTCHA
 * unless `beforeFiles` did: it throws captcha_failed on a missing or refused answer, and
 * otherwise says `passed` or `unverified` (the provider could not be reached in time), the
 * fact prepareSubmission turns into the spam verdict. A form without a captcha, or an exempt
 * test run, is `none`.
 */
export function captchaGate(req: Request, ctx: RouteContext, form: IngestForm, exempt: boolean) {
  const captcha = exempt ? null : form.captcha;
  let checkedAtFiles: Promise<SiteVerdict> | undefined;
  const verify = (response: string | undefined) =>
    ctx.captcha.verify(
      req.em,
      {
        endpointToken: form.endpointToken,
        captcha: captcha!,
        allowedDomains: formPostingDomains(form),
      },
      response,
      clientAddress(req),
    );
  return {
    async beforeFiles(fields: Record<string, unknown>): Promise<FileAdmission> {
      if (!captcha) return 'write';
      const { response } = takeCaptchaResponse(captcha, fields);
      if (response === undefined) throw captchaFailed(CAPTCHA_BEFORE_FILES);
      checkedAtFiles = verify(response);
      const outcome = await checkedAtFiles;
      if (outcome.outcome === 'refused') throw captchaFailed(outcome.reason);
      return outcome.outcome === 'passed' ? 'write' : 'drain';
    },
    take(fields: Record<string, unknown>) {
      const none = async (): Promise<CaptchaVerdict> => 'none';
      if (!form.captcha) return { fields, verdict: none };
      const taken = takeCaptchaResponse(form.captcha, fields);
      if (!captcha) return { fields: taken.fields, verdict: none };
      return {
        fields: taken.fields,
        async verdict(): Promise<CaptchaVerdict> {
          // An answer is good once: the one checked at the first file stands.
          const outcome = await (checkedAtFiles ?? verify(taken.response));
          if (outcome.outcome === 'refused') throw captchaFailed(outcome.reason);
          if (outcome.outcome === 'unverified') {
            ctx.logger.warn(
              { formId: form.id, reason: outcome.reason },
              'CAPTCHA not verified: the submission is kept as spam for review',
            );
          }
          return outcome.outcome;
        },
      };
    },
  };
}
