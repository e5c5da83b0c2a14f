import { z } from 'zod';
import { fieldText, withoutLineBreaks } from '../manage/plugin-configs';

/* An e-mail plugin's config: its recipients and subject template (docs/plugins.md). */

export const MAX_EMAIL_RECIPIENTS = 10;
export const MAX_SUBJECT_LENGTH = 200;
export const DEFAULT_EMAIL_SUBJECT = 'New submission to {form}';

const subjectTemplate = z
  .string()
  .transform((text) => withoutLineBreaks(text).trim())
  .pipe(z.string().max(MAX_SUBJECT_LENGTH, `must be at most ${MAX_SUBJECT_LENGTH} characters`))
  .transform((text) => text || DEFAULT_EMAIL_SUBJECT);

export const emailPluginConfig = z.object({
  recipients: z
    .array(z.string().trim().toLowerCase().pipe(z.email('must be e-mail addresses')))
    .min(1, 'at least one address is required')
    .max(MAX_EMAIL_RECIPIENTS, `at most ${MAX_EMAIL_RECIPIENTS} addresses`)
    .transform((addresses) => [...new Set(addresses)]),
  subject: subjectTemplate.default(DEFAULT_EMAIL_SUBJECT),
});
export type EmailPluginConfig = z.output<typeof emailPluginConfig>;

/**
 * Fills a subject template: `{form}` the form's name, `{id}` the submission's id,
 * `{field:NAME}` a submitted field (empty when absent). The result has no line breaks.
 */
export function renderSubject(
  template: string,
  values: { formName: string; submissionId: string; payload: Record<string, unknown> },
): string {
  const filled = template.replace(
    /\{(form|id|field:([^{}]{1,100}))\}/g,
    (_, key: string, name?: string) => {
      if (key === 'form') return values.formName;
      if (key === 'id') return values.submissionId;
      return fieldText(values.payload[name!]);
    },
  );
  return withoutLineBreaks(filled).trim().slice(0, 998) || `New submission to ${values.formName}`;
}
