import type { FormChanges } from '../../domain/forms/forms';
import type { UpdateFormBody } from './forms-schemas';

const withoutUndefined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * A validated create/update body (snake_case, as the API takes it) as the domain's changes:
 * only the fields sent, lists without repeats, e-mail addresses in lower case. The API and
 * the dashboard's form pages both use it.
 */
export function formChanges(body: UpdateFormBody): FormChanges {
  return withoutUndefined({
    name: body.name,
    successRedirectUrl: body.success_redirect_url,
    isActive: body.is_active,
    acceptFiles: body.accept_files,
    allowedDomains: body.allowed_domains && [...new Set(body.allowed_domains)],
    notificationEmailAddresses: body.notification_email_addresses && [
      ...new Set(body.notification_email_addresses.map((e) => e.toLowerCase())),
    ],
    autoresponse: body.autoresponse,
    retentionDays: body.retention_days,
    deleteAfterDelivery: body.delete_after_delivery,
    fields: body.fields,
    unknownFields: body.unknown_fields,
    page: body.page,
    domain: body.domain,
    slug: body.slug,
    limits: body.limits,
    submitterAccess: body.submitter_access,
    editUntil: body.edit_until,
  });
}
