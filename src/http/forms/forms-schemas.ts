import { z } from 'zod';
import { SLUG_PATTERN } from '../../domain/domains/domain-forms';
import {
  MAX_FIELDS_BYTES,
  MAX_OPTIONS_IN_ALL,
  MAX_PAGE_BYTES,
} from '../../domain/forms/form-fields';
import { captchaInput } from './captcha-schemas';
import { autoresponseSchema } from './autoresponse-schemas';
import { formFieldList, unknownFieldsPolicy } from './form-fields-schemas';
import { formPageInput } from './form-page-schemas';
import { formLimitsInput } from './form-limits-schemas';
import { editUntilSchema, submitterAccessSchema } from './submitter-access-schemas';
import { text } from '../kit/answers/text';

const hostnamePattern =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain in `allowed_domains`: a host name such as `example.com` (subdomains match too). */
const allowedDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .refine(
    (value) => hostnamePattern.test(value),
    'must be a host name such as example.com (no scheme or path)',
  );

const redirectUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2048);

export const formFields = {
  name: text().trim().min(1, 'must not be empty').max(200).describe('display name'),
  success_redirect_url: redirectUrl
    .nullable()
    .describe('where browsers go after posting; null: our thank-you page'),
  is_active: z.boolean().describe('false: ingest answers 404 `not_active`'),
  accept_files: z
    .boolean()
    .describe(
      'false: ingest refuses multipart file parts with 422 `validation_failed`; new forms start with false',
    ),
  allowed_domains: z
    .array(allowedDomain)
    .max(50)
    .describe('host names allowed to post (subdomains included); empty: any origin'),
  notification_email_addresses: z
    .array(z.email({ error: 'must be an e-mail address' }))
    .max(20)
    .describe('who is e-mailed about new submissions'),
  captcha: captchaInput,
  retention_days: z
    .number({ error: 'must be a whole number of days from 1 to 3650, or null' })
    .int('must be a whole number of days from 1 to 3650, or null')
    .min(1, 'must be at least 1 day (null: keep for ever)')
    .max(3650, 'must be at most 3650 days (null: keep for ever)')
    .nullable()
    .describe(
      'days a submission is kept, then deleted with its files (docs/retention.md); null: for ever',
    ),
  delete_after_delivery: z
    .boolean()
    .describe(
      'true: a submission is deleted once every delivery of it succeeded (docs/retention.md)',
    ),
  fields: formFieldList
    .nullable()
    .describe(
      `the field list ingest validates against (docs/form-fields.md); at most ${MAX_FIELDS_BYTES} bytes serialized as JSON and ${MAX_OPTIONS_IN_ALL} options in all; null: free-form`,
    ),
  unknown_fields: unknownFieldsPolicy,
  page: formPageInput
    .nullable()
    .describe(
      `the hosted page of the form (docs/form-pages.md); at most ${MAX_PAGE_BYTES} bytes serialized as JSON, its texts together; null: none`,
    ),
  limits: formLimitsInput,
  submitter_access: submitterAccessSchema,
  edit_until: editUntilSchema,
};

/** A verified custom domain of the account (docs/custom-domains.md); null: none. */
const formDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .nullable()
  .describe(
    'a verified custom domain of this account: the page is also at https://{domain}/{slug} (docs/custom-domains.md); null: none',
  );

const formSlug = z
  .string()
  .regex(SLUG_PATTERN, 'must be 1 to 64 lower-case letters, digits and hyphens')
  .nullable()
  .describe('the path of the page on `domain`, unique per domain; null: none');

export const createFormBody = z
  .object({
    name: formFields.name,
    success_redirect_url: formFields.success_redirect_url.optional(),
    is_active: formFields.is_active.optional(),
    accept_files: formFields.accept_files.optional(),
    allowed_domains: formFields.allowed_domains.optional(),
    notification_email_addresses: formFields.notification_email_addresses.optional(),
    captcha: formFields.captcha.optional(),
    retention_days: formFields.retention_days.optional(),
    delete_after_delivery: formFields.delete_after_delivery.optional(),
    fields: formFields.fields.optional(),
    unknown_fields: formFields.unknown_fields.optional(),
    page: formFields.page.optional(),
    limits: formFields.limits.optional(),
    submitter_access: formFields.submitter_access.optional(),
    edit_until: formFields.edit_until.optional(),
  })
  .meta({ id: 'CreateForm' });

export const updateFormBody = z
  .object({
    name: formFields.name.optional(),
    success_redirect_url: formFields.success_redirect_url.optional(),
    is_active: formFields.is_active.optional(),
    accept_files: formFields.accept_files.optional(),
    allowed_domains: formFields.allowed_domains.optional(),
    notification_email_addresses: formFields.notification_email_addresses.optional(),
    captcha: formFields.captcha.optional(),
    autoresponse: autoresponseSchema
      .nullable()
      .optional()
      .describe('the mail to the submitter (docs/autoresponse.md); null: none'),
    retention_days: formFields.retention_days.optional(),
    delete_after_delivery: formFields.delete_after_delivery.optional(),
    fields: formFields.fields.optional(),
    unknown_fields: formFields.unknown_fields.optional(),
    page: formFields.page.optional(),
    domain: formDomain.optional(),
    slug: formSlug.optional(),
    limits: formFields.limits.optional(),
    submitter_access: formFields.submitter_access.optional(),
    edit_until: formFields.edit_until.optional(),
  })
  .meta({ id: 'UpdateForm' });

export type UpdateFormBody = z.output<typeof updateFormBody>;
