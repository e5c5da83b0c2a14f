import { z } from 'zod';
import type { Form } from '../../domain/entities';
import { can, type Principal } from '../../domain/accounts/principal';
import type { FormCounts } from '../../domain/forms/form-counts';
import type { RecipientStatus } from '../../domain/recipients/recipient-states';
import { envelopeSchema, listEnvelopeSchema } from '../kit/answers/envelope';
import { formUrls } from './form-urls';
import { link, linksSchema, type Link } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { autoresponseSchema } from './autoresponse-schemas';
import { count, dateTime, idString } from '../kit/answers/fields';
import { formFieldListWithoutBudget, unknownFieldsPolicy } from './form-fields-schemas';
import { storedFormPage } from './form-page-schemas';
import { captchaView } from '../../domain/captcha/captcha-settings';
import { captchaViewSchema } from './captcha-schemas';
import { captchaWidget } from '../ingest/captcha-widget';
import { embedHtml } from './embed-html';
import { formExamples, HTML_EXAMPLE_POINTER } from './form-examples';
import { formLimitsView } from './form-limits-schemas';
import { editUntilView, submitterAccessSchema } from './submitter-access-schemas';
import { closedReason } from '../../domain/forms/form-limits';

export const formSchema = z
  .object({
    id: idString('form id'),
    name: z.string(),
    endpoint_token: z
      .string()
      .describe('public token used in ingest paths; accepted wherever a form id is'),
    success_redirect_url: z
      .string()
      .meta({ format: 'uri' })
      .nullable()
      .describe('where browsers go after posting; null: our thank-you page'),
    is_active: z.boolean().describe('false: submissions are rejected with `not_active`'),
    accept_files: z
      .boolean()
      .describe(
        'false: multipart file parts are refused with 422 `validation_failed`; new forms start with false',
      ),
    allowed_domains: z
      .array(z.string())
      .describe('empty: any origin; otherwise these domains and their subdomains'),
    notification_email_addresses: z.array(z.string().meta({ format: 'email' })),
    notification_recipients: z
      .array(
        z
          .object({
            address: z.string().meta({ format: 'email' }),
            confirmed: z
              .boolean()
              .describe(
                'true: it receives the notifications (it followed its confirmation link, or it is the ' +
                  "address of one of the account's confirmed users, and did not unsubscribe); false: " +
                  'nothing is sent to it until it confirms',
              ),
          })
          .meta({ id: 'NotificationRecipient' }),
      )
      .describe(
        'notification_email_addresses with their confirmation status (docs/security.md, "Recipients and mail")',
      ),
    captcha: captchaViewSchema,
    autoresponse: autoresponseSchema
      .nullable()
      .describe('the mail to the submitter, as set (docs/autoresponse.md); null: none'),
    retention_days: z
      .number()
      .int()
      .nullable()
      .describe('days a submission is kept (docs/retention.md); null: for ever'),
    delete_after_delivery: z
      .boolean()
      .describe('true: a submission is deleted once every delivery of it succeeded'),
    // As stored: a definition stored before its byte budget existed may be over it.
    fields: formFieldListWithoutBudget
      .nullable()
      .describe('the field list ingest validates against (docs/form-fields.md); null: free-form'),
    unknown_fields: unknownFieldsPolicy,
    page: storedFormPage.nullable().describe('the hosted page (docs/form-pages.md); null: none'),
    page_url: z
      .string()
      .meta({ format: 'uri' })
      .nullable()
      .describe('where the hosted page is served; null without a page or without fields'),
    custom_page_url: z
      .string()
      .meta({ format: 'uri' })
      .nullable()
      .describe(
        'the page on its custom domain, https://{domain}/{slug}; null without a page, domain or slug (docs/custom-domains.md)',
      ),
    schema_url: z
      .string()
      .meta({ format: 'uri' })
      .describe('the JSON Schema of the payload this form accepts'),
    domain: z
      .string()
      .nullable()
      .describe('the verified custom domain the page is also served on (docs/custom-domains.md)'),
    slug: z.string().nullable().describe('the page path on `domain`: https://{domain}/{slug}'),
    submission_url: z.string().meta({ format: 'uri', description: 'POST target for HTML forms' }),
    json_url: z.string().meta({ format: 'uri', description: 'POST target for JSON submissions' }),
    thanks_url: z.string().meta({ format: 'uri', description: 'the default thank-you page' }),
    embed_html: z
      .string()
      .describe('ready-to-paste form markup with the `_hp` honeypot (and the CAPTCHA widget)'),
    autocomplete_script_url: z.string().meta({ format: 'uri' }),
    limits: formLimitsView,
    submitter_access: submitterAccessSchema,
    edit_until: editUntilView,
    open: z
      .boolean()
      .describe(
        'whether the form takes submissions now: active, inside its window and under its `max_submissions` (docs/form-limits.md)',
      ),
    submission_count: count('non-spam submissions (what `max_submissions` counts)'),
    submission_spam_count: count('spam submissions'),
    last_submission_at: dateTime('newest non-spam submission').nullable(),
    examples: z
      .record(z.string(), z.string())
      .describe(
        `copy-paste request examples by name (curl, curl_form, fetch); \`html\` is "${HTML_EXAMPLE_POINTER}": the snippet is given once, in \`embed_html\``,
      ),
    help: z.string().meta({ format: 'uri', description: 'documentation of the ingest endpoints' }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
    links: linksSchema(),
  })
  .meta({ id: 'Form' });

export type FormView = z.input<typeof formSchema>;

export const formEnvelope = envelopeSchema('FormEnvelope', 'form', formSchema);
export const formListEnvelope = listEnvelopeSchema('FormListEnvelope', 'forms', formSchema);

/** The Form resource of the specification, with the links this caller may follow. */
export function formView(
  form: Form,
  counts: FormCounts,
  urls: PublicUrls,
  principal: Principal,
  recipients: RecipientStatus[],
): FormView {
  const u = formUrls(urls, form.endpointToken);
  const html = embedHtml({
    name: form.name,
    token: form.endpointToken,
    submissionUrl: u.submissionUrl,
    captcha: captchaWidget(form.captcha ?? null, u),
    fields: form.fields ?? null,
    submitLabel: form.page?.submit_label,
  });
  return {
    id: form.id,
    name: form.name,
    endpoint_token: form.endpointToken,
    success_redirect_url: form.successRedirectUrl ?? null,
    is_active: form.isActive,
    accept_files: form.acceptFiles,
    allowed_domains: form.allowedDomains,
    notification_email_addresses: form.notificationEmailAddresses,
    notification_recipients: recipients,
    captcha: captchaView(form.captcha),
    autoresponse: form.autoresponse ?? null,
    retention_days: form.retentionDays ?? null,
    delete_after_delivery: form.deleteAfterDelivery,
    fields: form.fields ?? null,
    unknown_fields: form.unknownFields,
    page: form.page ?? null,
    page_url: form.page && form.fields ? u.pageUrl : null,
    custom_page_url:
      form.page && form.fields && form.domain && form.slug
        ? `https://${form.domain}/${form.slug}`
        : null,
    schema_url: `${urls.base}/api/forms/${form.id}/schema`,
    domain: form.domain ?? null,
    slug: form.slug ?? null,
    submission_url: u.submissionUrl,
    json_url: u.jsonUrl,
    thanks_url: u.thanksUrl,
    embed_html: html,
    autocomplete_script_url: u.autocompleteScriptUrl,
    limits: form.limits ?? null,
    submitter_access: form.submitterAccess,
    edit_until: form.editUntil ?? null,
    open: form.isActive && closedReason(form.limits, Date.now(), counts.submissions) === null,
    submission_count: counts.submissions,
    submission_spam_count: counts.spam,
    last_submission_at: counts.lastSubmissionAt?.toISOString() ?? null,
    examples: formExamples(u, form.fields ?? null),
    help: u.helpUrl,
    created_at: form.createdAt.toISOString(),
    updated_at: form.updatedAt.toISOString(),
    links: formLinks(form, urls, principal),
  };
}

function formLinks(form: Form, urls: PublicUrls, principal: Principal): Link[] {
  const self = `${urls.base}/api/forms/${form.id}`;
  const links = [link('self', self)];
  if (can(principal, 'can_create_forms')) links.push(link('update', self, 'PATCH'));
  if (can(principal, 'can_read_submissions'))
    links.push(link('submissions', `${urls.base}/api/submissions?form_id=${form.id}`));
  if (can(principal, 'can_read_spam_submissions'))
    links.push(link('spam_submissions', `${urls.base}/api/submissions/spam?form_id=${form.id}`));
  links.push(link('plugins', `${self}/plugins`));
  if (can(principal, 'can_create_forms'))
    links.push(link('create_plugin', `${self}/plugins`, 'POST'));
  links.push(link('stats', `${urls.base}/api/form_stats/${form.id}`));
  links.push(link('schema', `${self}/schema`));
  const u = formUrls(urls, form.endpointToken);
  links.push(link('submit', u.submissionUrl, 'POST'), link('submit_json', u.jsonUrl, 'POST'));
  return links;
}
