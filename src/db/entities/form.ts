import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoredCaptcha } from './form-captcha';
import type { FormField, FormPage, UnknownFieldPolicy } from './form-fields';
import type { FormLimits } from './form-limits';
import type { SubmitterAccess } from './submitter-access';
import { bigintColumn, createdAtColumn, idColumn, updatedAtColumn } from './columns';

export const Form = defineEntity({
  name: 'Form',
  tableName: 'forms',
  properties: {
    id: idColumn(),
    accountId: bigintColumn(),
    name: p.string(),
    endpointToken: p.string(),
    successRedirectUrl: p.string().nullable(),
    isActive: p.boolean(),
    /** false: multipart file parts are refused (docs/api-conventions.md, Ingest). */
    acceptFiles: p.boolean(),
    allowedDomains: p.type('text[]').$type<string[]>(),
    notificationEmailAddresses: p.type('text[]').$type<string[]>(),
    /** null: no CAPTCHA (docs/captcha.md). */
    captcha: p.json<StoredCaptcha>().nullable(),
    /** The mail to the submitter (docs/autoresponse.md); null: none. */
    autoresponse: p.json<{ subject: string; body: string; reply_to: string | null }>().nullable(),
    /** Days a submission is kept (docs/retention.md); null: for ever. */
    retentionDays: p.integer().nullable(),
    /** Delete each submission once every delivery of it succeeded. */
    deleteAfterDelivery: p.boolean(),
    /** The field list (docs/form-fields.md); null: free-form. */
    fields: p.json<FormField[]>().nullable(),
    /** Names posted outside `fields`: kept, dropped or refused. */
    unknownFields: p.string().$type<UnknownFieldPolicy>().default('keep'),
    /** The hosted page (docs/form-pages.md); null: none. */
    page: p.json<FormPage>().nullable(),
    /** A verified custom domain of the account the page is also served on (docs/custom-domains.md). */
    domain: p.string().nullable(),
    /** The page's path on `domain`: `https://{domain}/{slug}`; unique per domain. */
    slug: p.string().nullable(),
    /** Gates: a count, a window, a unique field (docs/form-limits.md); null: none. */
    limits: p.json<FormLimits>().nullable(),
    /** What submitters may do through their manage link (docs/manage-links.md). */
    submitterAccess: p.string().$type<SubmitterAccess>().default('none'),
    /** ISO 8601 duration after a submission during which it may be edited; null: no limit. */
    editUntil: p.string().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type Form = InferEntity<typeof Form>;
