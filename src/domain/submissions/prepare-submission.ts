import { fillMsFromStamp } from '../spam/fill-time';
import type { FieldRules } from '../forms/validate-fields';
import { checkFormRules, type SubmissionProblem } from './form-rules';
import { checkPayloadLimits } from './payload-checks';
import { FILL_STAMP_FIELD, HONEYPOT_FIELD, honeypotFilled } from './special-fields';
import type { NewSubmission, UploadedFile } from './store-submission';
import { fieldsWithIllFormedText, fieldsWithNul, shownName } from './unstorable-text';
import { spamReasonAt } from '../spam/rules';

export type { SubmissionProblem } from './form-rules';

/** What ingest knows about the request besides its fields (raw header values). */
export type RequestFacts = {
  /** When the submission arrived (ms since the epoch): the fill time is measured to it. */
  receivedAtMs: number;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
};

export type SubmissionToCheck = {
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

/** A submission the rules let through: the row to store, all but its spam verdict. */
export type CheckedSubmission = Omit<NewSubmission, 'spamReason'> & { honeypotFilled: boolean };

export type SubmissionCheck =
  { ok: true; submission: CheckedSubmission } | { ok: false; problem: SubmissionProblem };

/**
 * The form's CAPTCHA on this post, decided before (src/http/ingest/captcha-gate.ts):
 * `passed`; `unverified` when its provider could not be reached in time (kept as spam for
 * review); `none` without a CAPTCHA, or for a test run by the owner's key. A refused answer
 * never comes here: it is answered 422 captcha_failed and nothing is stored.
 */
export type CaptchaVerdict = 'passed' | 'unverified' | 'none';

/** A checked submission and the facts ingest's spam rules decide on besides it. */
export type SubmissionToPrepare = CheckedSubmission & { captcha: CaptchaVerdict };

// Header values are stored cut to these lengths.
const USER_AGENT_CHARS = 1024;
const REFERRER_CHARS = 2048;

/**
 * Every ingest rule on a submission's fields, in the order a caller sees them: payload limits
 * (on the fields as sent, control fields included), the control fields taken out (a filled
 * honeypot `_hp` marks spam, the `_ts` stamp becomes `fillMs`), text PostgreSQL cannot store
 * refused (NUL characters, ill-formed Unicode), then the form's rules (checkFormRules: its
 * field list, `email`/`name`/`message` normalised and `email` validated). A filled honeypot
 * is never refused for what the post holds, only for its size: it is stored as spam, shaped
 * like any other row as far as its values allow, without the fields that could not be
 * stored or that the form refuses as unknown, and it answers like success. Pure: the result
 * is either the checked submission (its spam verdict is prepareSubmission's) or the problems
 * to answer with.
 */
export function checkSubmission(input: SubmissionToCheck): SubmissionCheck {
  let sent = input.fields;
  if (input.limits === 'check') {
    const limits = checkPayloadLimits(sent);
    if (limits.tooLarge.length > 0) return refused('too_large', limits.tooLarge);
    if (limits.invalid.length > 0) {
      // Read the honeypot only among the fields within the limits (its depth among them).
      const within = withoutFields(sent, (name, value) => {
        return checkPayloadLimits({ [name]: value }).invalid.length > 0;
      });
      if (!honeypotFilled(within[HONEYPOT_FIELD])) return refused('invalid', limits.invalid);
      sent = within;
    }
  }

  const spam = honeypotFilled(sent[HONEYPOT_FIELD]);
  const fillMs = fillMsFromStamp(sent[FILL_STAMP_FIELD], input.request.receivedAtMs);
  let payload = { ...sent };
  delete payload[HONEYPOT_FIELD];
  delete payload[FILL_STAMP_FIELD];

  const nul = fieldsWithNul(payload);
  const illFormed = fieldsWithIllFormedText(payload);
  if (!spam && nul.length > 0)
    return refused(
      'invalid',
      nul.map((name) => `${shownName(name)}: must not contain NUL characters`),
    );
  if (!spam && illFormed.length > 0)
    return refused(
      'ill_formed',
      illFormed.map(
        (name) => `${shownName(name)}: must be well-formed Unicode (it holds a lone surrogate)`,
      ),
    );
  const unstorable = new Set([...nul, ...illFormed]);
  if (unstorable.size > 0) payload = withoutFields(payload, (name) => unstorable.has(name));

  const checked = checkFormRules(input.rules, payload, input.files);
  if (!checked.ok && !spam) return { ok: false, problem: checked.problem };

  return {
    ok: true,
    submission: {
      formId: input.form.id,
      accountId: input.form.accountId,
      payload: checked.payload,
      special: checked.special,
      sourceIp: input.request.sourceIp,
      userAgent: input.request.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
      referrer: input.request.referrer?.slice(0, REFERRER_CHARS) ?? null,
      fillMs,
      receivedAt: new Date(input.request.receivedAtMs),
      files: checked.ok ? checked.files : [],
      honeypotFilled: spam,
    },
  };
}

/**
 * The submission to store: a checked submission with ingest's spam verdict, from the one
 * table of spam rules (a filled honeypot, then a CAPTCHA its provider could not verify).
 * Spam keeps no file bytes; its answer still looks like success. Pure.
 */
export function prepareSubmission(input: SubmissionToPrepare): NewSubmission {
  const { honeypotFilled, captcha, files, ...row } = input;
  const spamReason = spamReasonAt('ingest', {
    honeypotFilled,
    captchaUnverified: captcha === 'unverified',
  });
  return { ...row, spamReason, files: spamReason === null ? files : [] };
}

/** The fields but those `leaveOut` names. */
const withoutFields = (
  fields: Record<string, unknown>,
  leaveOut: (name: string, value: unknown) => boolean,
) => Object.fromEntries(Object.entries(fields).filter(([name, value]) => !leaveOut(name, value)));

const refused = (kind: SubmissionProblem['kind'], errors: string[]): SubmissionCheck => ({
  ok: false,
  problem: { kind, errors },
});
