import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../app-context';
import type { IngestForm } from '../../domain/forms/form-cache';
import { originAllowed } from '../../domain/forms/allowed-domains';
import { formUrls } from '../../domain/forms/form-urls';
import { findFormByToken } from '../../domain/forms/forms';
import { fillMsFromStamp } from '../../domain/spam/fill-time';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import { fieldsWithNul } from '../../domain/submissions/nul-characters';
import { checkPayloadLimits } from '../../domain/submissions/payload-checks';
import {
  FILL_STAMP_FIELD,
  HONEYPOT_FIELD,
  honeypotFilled,
  normalizeSpecialFields,
} from '../../domain/submissions/special-fields';
import { storeSubmission, type UploadedFile } from '../../domain/submissions/store-submission';
import { autocompleteScript } from '../ingest/autocomplete-script';
import { clientAddress } from '../ingest/client-address';
import { answerPreflight, setIngestCors } from '../ingest/cors';
import { parseFormBody } from '../ingest/parse-form-body';
import { RateLimiter } from '../ingest/rate-limiter';
import { thanksPage } from '../ingest/thanks-page';
import { HttpError, validationFailed } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';
import { ingestQuery, jsonSubmissionBody } from '../schemas/ingest';
import { parseOrThrow } from '../validate';
import { testDeliveriesView } from '../views/test-deliveries';

const TEST_RUN_TIMEOUT_MS = 60_000;

/** `/f/{token}` (HTML forms) and `/json/{token}` (JSON clients): no authentication. */
export function ingestRouter(ctx: AppContext): Router {
  const router = Router();
  const limiter = new RateLimiter(ctx.config.ingestRateLimitPerMinute);
  const parseJson = express.json({
    limit: INGEST_LIMITS.jsonBodyBytes,
    strict: false,
    type: () => true,
  });

  /** Form checks shared by both endpoints, in the order a caller can fix them. */
  const acceptingForm = async (req: Request): Promise<IngestForm> => {
    const form = await ctx.forms.byToken(req.em, String(req.params.token));
    if (!form) throw new HttpError(404, 'not_found', 'no form has this endpoint token');
    if (!form.isActive)
      throw new HttpError(404, 'not_active', 'this form is not accepting submissions');
    if (!originAllowed(form.allowedDomains, req.get('origin'), req.get('referer'))) {
      throw new HttpError(
        403,
        'domain_not_allowed',
        'this form does not accept submissions from this site',
      );
    }
    const wait = limiter.hit(`${clientAddress(req)}|${form.id}`);
    if (wait > 0) {
      throw new HttpError(
        429,
        'rate_limited',
        'too many submissions; try again shortly',
        undefined,
        {
          'Retry-After': String(wait),
        },
      );
    }
    return form;
  };

  /** Validates, stores (committed before we answer) and returns the stored submission's id. */
  const accept = async (
    req: Request,
    form: IngestForm,
    payload: Record<string, unknown>,
    files: UploadedFile[],
  ) => {
    const spam = honeypotFilled(payload[HONEYPOT_FIELD]);
    const fillMs = fillMsFromStamp(payload[FILL_STAMP_FIELD], Date.now());
    delete payload[HONEYPOT_FIELD];
    delete payload[FILL_STAMP_FIELD];
    const nul = fieldsWithNul(payload);
    if (nul.length > 0)
      throw validationFailed(nul.map((name) => `${name}: must not contain NUL characters`));
    const special = normalizeSpecialFields(payload);
    if (!special.ok) throw validationFailed(special.errors);
    const submission = await storeSubmission(
      req.em,
      {
        formId: form.id,
        accountId: form.accountId,
        payload,
        special: special.special,
        sourceIp: clientAddress(req),
        userAgent: req.get('user-agent')?.slice(0, 1024) ?? null,
        referrer: req.get('referer')?.slice(0, 2048) ?? null,
        spamReason: spam ? 'honeypot' : null,
        fillMs,
        files,
      },
      (submissionId, fileId) => `${ctx.urls.base}/api/submissions/${submissionId}/files/${fileId}`,
    );
    return submission.id;
  };

  const resultLinks = (form: IngestForm, submissionId: string) => [
    link('submission', `${ctx.urls.base}/api/submissions/${submissionId}`),
    link('form', `${ctx.urls.base}/api/forms/${form.id}`),
  ];

  /** After the answer: the workflow start is not on the request path; the sweeper backs it up. */
  const startWorkflowAfter = (res: Response, submissionId: string) => {
    res.on('finish', () => ctx.workflows.enqueue(submissionId));
  };

  router
    .route('/f/:token')
    .options(answerPreflight)
    .post(async (req, res) => {
      setIngestCors(req, res);
      const form = await acceptingForm(req);
      if (!req.is(['application/x-www-form-urlencoded', 'multipart/form-data'])) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          'post the form as application/x-www-form-urlencoded or multipart/form-data',
        );
      }
      const body = await parseFormBody(req);
      const payload: Record<string, unknown> = { ...body.fields };
      const id = await accept(req, form, payload, body.files);
      startWorkflowAfter(res, id);
      if (req.accepts(['html', 'json']) === 'json') {
        res.json({ ok: true, id, links: resultLinks(form, id) });
        return;
      }
      res.redirect(
        302,
        form.successRedirectUrl ?? formUrls(ctx.urls, form.endpointToken).thanksUrl,
      );
    })
    .all(methodNotAllowed(['POST', 'OPTIONS']));

  router
    .route('/f/:token/thanks')
    .get(async (req, res) => {
      const form = await findFormByToken(req.em, String(req.params.token));
      if (!form) throw new HttpError(404, 'not_found', 'no form has this endpoint token');
      res.type('html').send(thanksPage(form.name, req.get('referer') ?? null));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/f/:token/autocomplete.js')
    .get(async (req, res) => {
      const form = await findFormByToken(req.em, String(req.params.token));
      if (!form) throw new HttpError(404, 'not_found', 'no form has this endpoint token');
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('Access-Control-Allow-Origin', '*');
      res
        .type('application/javascript')
        .send(
          autocompleteScript(
            form.endpointToken,
            formUrls(ctx.urls, form.endpointToken).submissionUrl,
          ),
        );
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/json/:token')
    .options(answerPreflight)
    .post(async (req, res) => {
      setIngestCors(req, res);
      const query = parseOrThrow(ingestQuery, req.query, 'query');
      const form = await acceptingForm(req);
      if (!req.is(['application/json', 'application/*+json'])) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          'post the submission as application/json',
        );
      }
      await new Promise<void>((resolve, reject) =>
        parseJson(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
      );
      const payload = parseOrThrow(
        jsonSubmissionBody,
        Array.isArray(req.body) ? null : (req.body ?? null),
        'body',
      );
      const limits = checkPayloadLimits(payload);
      if (limits.tooLarge.length > 0)
        throw new HttpError(
          413,
          'payload_too_large',
          'the submission exceeds a limit',
          limits.tooLarge,
        );
      if (limits.invalid.length > 0) throw validationFailed(limits.invalid);
      const id = await accept(req, form, { ...payload }, []);
      if (query.test !== 'true') {
        startWorkflowAfter(res, id);
        res.json({ ok: true, id, links: resultLinks(form, id) });
        return;
      }
      const result = await ctx.workflows.runAndWait(id, TEST_RUN_TIMEOUT_MS);
      res.json({
        ok: true,
        id,
        test: true,
        deliveries: testDeliveriesView(result.deliveries),
        links: resultLinks(form, id),
      });
    })
    .all(methodNotAllowed(['POST', 'OPTIONS']));

  return router;
}
