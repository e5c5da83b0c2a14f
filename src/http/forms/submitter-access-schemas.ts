import { z } from 'zod';
import { SUBMITTER_ACCESS_VALUES } from '../../domain/manage/submitter-access';
import { EDIT_UNTIL_MAX_DAYS, editDurationMs } from '../../domain/manage/edit-window';

/** What submitters may do through their manage link (docs/manage-links.md). */
export const submitterAccessSchema = z
  .enum(SUBMITTER_ACCESS_VALUES, {
    error: 'must be one of none, view, edit, edit_delete',
  })
  .describe(
    'what each submitter may do through the manage link shown once after posting ' +
      '(docs/manage-links.md): `none` (no link), `view`, `edit` (a new version), `edit_delete`',
  );

const DURATION_PROBLEM =
  `must be an ISO 8601 duration of days, hours and minutes, such as P7D or PT12H, ` +
  `from one minute to P${EDIT_UNTIL_MAX_DAYS}D`;

/** How long after a submission it may be edited; null: until the form's `closes_at`, if any. */
export const editUntilSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine((value) => editDurationMs(value) !== null, DURATION_PROBLEM)
  .nullable()
  .describe(
    `an ISO 8601 duration after the submission (days, hours, minutes: \`P7D\`, \`PT12H\`; at ` +
      `most \`P${EDIT_UNTIL_MAX_DAYS}D\`) during which it may be edited or deleted; ` +
      '`limits.closes_at` always ends it; null: no limit but that',
  );

/** `edit_until` as the Form shows it. */
export const editUntilView = z
  .string()
  .nullable()
  .describe(
    'the ISO 8601 duration after a submission during which it may be edited (docs/manage-links.md); null: no limit but `limits.closes_at`',
  );
