import { z } from 'zod';
import { validateWebhookUrl, type HostLookup } from './webhook-url';
import type { AllowList } from './address-policy';

/**
 * The types a person configures in the dashboard (they carry no signing secret); the other
 * type, `webhook`, is created through the API (docs/plugins.md lists them all).
 */
export const DASHBOARD_PLUGIN_TYPES = ['email', 'slack', 'discord'] as const;
export type DashboardPluginType = (typeof DASHBOARD_PLUGIN_TYPES)[number];

export const MAX_EMAIL_RECIPIENTS = 10;
export const MAX_SUBJECT_LENGTH = 200;
export const DEFAULT_EMAIL_SUBJECT = 'New submission to {form}';

/** Line breaks in a header value would start a new header: they become spaces. */
export function withoutLineBreaks(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

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

/** Slack and Discord: their incoming-webhook URL, checked like a webhook URL afterwards. */
export const chatPluginConfig = z.object({
  url: z.string({ error: 'is required (an https:// URL)' }).trim().min(1, 'is required'),
});
export type ChatPluginConfig = z.output<typeof chatPluginConfig>;

/** What the URL check needs: the SSRF policy, the resolver and this service's own URLs. */
export type UrlCheckOptions = {
  allowList: AllowList;
  lookup?: HostLookup;
  ownUrls?: readonly string[];
};

export type ConfigCheck =
  { ok: true; config: EmailPluginConfig | ChatPluginConfig } | { ok: false; errors: string[] };

/**
 * Validates a dashboard plugin's config: zod for its shape, then for Slack and Discord the
 * webhook URL rules (https, public addresses, no loop). Errors read `field: message`.
 */
export async function checkPluginConfig(
  type: DashboardPluginType,
  raw: unknown,
  urls: UrlCheckOptions,
): Promise<ConfigCheck> {
  if (type === 'email') {
    const parsed = emailPluginConfig.safeParse(raw);
    return parsed.success
      ? { ok: true, config: parsed.data }
      : { ok: false, errors: zodErrors(parsed.error) };
  }
  const parsed = chatPluginConfig.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error) };
  const checked = await validateWebhookUrl(parsed.data.url, urls);
  return checked.ok ? { ok: true, config: { url: checked.url } } : checked;
}

function zodErrors(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${String(issue.path[0] ?? 'config')}: ${issue.message}`);
}

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

/** A submitted value as one line of text: arrays joined, objects as JSON. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function isDashboardPluginType(type: string): type is DashboardPluginType {
  return (DASHBOARD_PLUGIN_TYPES as readonly string[]).includes(type);
}
