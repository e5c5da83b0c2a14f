import { fillMsFromStamp } from '../spam/fill-time';
import { validateFields, type FieldRules } from '../forms/validate-fields';
import { fieldsWithNul } from './nul-characters';
import { checkPayloadLimits } from './payload-checks';
import {
  FILL_STAMP_FIELD,
  HONEYPOT_FIELD,
  honeypotFilled,
  normalizeSpecialFields,
} from './special-fields';
import type { NewSubmission, UploadedFile } from './store-submission';
import { spamReasonAt } from '../spam/rules';

/** What ingest knows about the request besides its fields (raw header values). */
export type RequestFacts = {
  /** When the submission arrived (ms since the epoch): the fill time is measured to it. */
  receivedAtMs: number;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
};

export type SubmissionToPrepare = {
  form: { id: string; accountId: string };
  /** The fields as read from the body; not changed here. */
  fields: Record<string, unknown>;
  files: UploadedFile[];
  request: RequestFacts;
  /**
   * `check`: measure the field count, names, sizes and nesting here (JSON bodies, samples).
   * `checked-while-reading`: the form body reader enforced them while streaming
   * (src/http/ingest/parse-form-body.ts), where repeated names and parts are counted as sent.
   */
  limits: 'check' | 'checked-while-reading';
  /** The form's field list and unknown-name policy (docs/form-fields.md); null: free-form. */
  rules?: FieldRules | null;
};

/**
 * Why a submission is refused: `too_large` (a limit is exceeded, HTTP 413) or `invalid`
 * (HTTP 422); `errors` names each problem, one line a field.
 */
export type SubmissionProblem = {
  kind: 'too_large' | 'invalid';
  errors: string[];
  /** With a field list: one message by field name, for pages and clients to show beside it. */
  fieldErrors?: Record<string, string>;
};

export type PreparedSubmission =
  { ok: true; submission: NewSubmission } | { ok: false; problem: SubmissionProblem };

// Header values are stored cut to these lengths.
const USER_AGENT_CHARS = 1024;
const REFERRER_CHARS = 2048;

/**
 * Every ingest rule on a submission's fields, in the order a caller sees them: payload limits
 * (on the fields as sent, control fields included), the control fields taken out (a filled
 * honeypot `_hp` marks spam, the `_ts` stamp becomes `fillMs`), NUL characters refused,
 * `email`/`name`/`message` normalised and `email` validated. Pure: the result is either the
 * submission to store or the problems to answer with.
 */
export function prepareSubmission(input: SubmissionToPrepare): PreparedSubmission {
  if (input.limits === 'check') {
    const limits = checkPayloadLimits(input.fields);
    if (limits.tooLarge.length > 0) return refused('too_large', limits.tooLarge);
    if (limits.invalid.length > 0) return refused('invalid', limits.invalid);
  }

  const payload = { ...input.fields };
  const spam = honeypotFilled(payload[HONEYPOT_FIELD]);
  const fillMs = fillMsFromStamp(payload[FILL_STAMP_FIELD], input.request.receivedAtMs);
  delete payload[HONEYPOT_FIELD];
  delete payload[FILL_STAMP_FIELD];

  const nul = fieldsWithNul(payload);
  if (nul.length > 0)
    return refused(
      'invalid',
      nul.map((name) => `${name}: must not contain NUL characters`),
    );

  // A filled honeypot still looks like success: spam is stored as sent, never validated.
  let files = input.files;
  let fields = payload;
  if (input.rules && !spam) {
    const checked = validateFields(input.rules, payload, input.files);
    if (!checked.ok)
      return {
        ok: false,
        problem: {
          kind: 'invalid',
          errors: Object.entries(checked.fieldErrors).map(
            ([name, message]) => `${name}: ${message}`,
          ),
          fieldErrors: checked.fieldErrors,
        },
      };
    fields = checked.payload;
    files = checked.files;
  }

  const special = normalizeSpecialFields(fields);
  if (!special.ok) return refused('invalid', special.errors);

  return {
    ok: true,
    submission: {
      formId: input.form.id,
      accountId: input.form.accountId,
      payload: fields,
      special: special.special,
      sourceIp: input.request.sourceIp,
      userAgent: input.request.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
      referrer: input.request.referrer?.slice(0, REFERRER_CHARS) ?? null,
      spamReason: spamReasonAt('ingest', { honeypotFilled: spam, captchaUnverified: false }),
      fillMs,
      // Spam keeps no file bytes; its answer still looks like success.
      files: spam ? [] : files,
    },
  };
}

const refused = (kind: SubmissionProblem['kind'], errors: string[]): PreparedSubmission => ({
  ok: false,
  problem: { kind, errors },
});
