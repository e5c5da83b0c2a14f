import type { z } from 'zod';
import type { Form } from '../../domain/entities';
import { formChanges } from './form-changes';
import { createFormBody, updateFormBody } from './forms-schemas';
import type { FormChanges } from '../../domain/forms/forms';

/** The settings form's fields as typed (strings), to put back into the page after an error. */
export type FormSettingsInput = {
  name: string;
  success_redirect_url: string;
  is_active: boolean;
  accept_files: boolean;
  allowed_domains: string;
  notification_email_addresses: string;
  /** Days to keep submissions; empty: for ever (docs/retention.md). */
  retention_days: string;
  delete_after_delivery: boolean;
  /** The gates (docs/form-limits.md), each empty when unset; all empty: no limits. */
  max_submissions: string;
  opens_at: string;
  closes_at: string;
  unique_field: string;
  closed_message: string;
  /** Manage links (docs/manage-links.md): the access, and the edit window (empty: none). */
  submitter_access: string;
  edit_until: string;
};

/** The gates' inputs, in `limits` of the API's body. */
const LIMIT_INPUTS = [
  'max_submissions',
  'opens_at',
  'closes_at',
  'unique_field',
  'closed_message',
] as const;

/** Field name -> the first problem with it, shown next to the field. */
export type FieldErrors = Partial<Record<keyof FormSettingsInput, string>>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** One entry a line (commas and spaces separate too). */
const entries = (value: string) => value.split(/[\s,]+/).filter((entry) => entry !== '');

/** What a new form's page starts with: the API's defaults. */
export const NEW_FORM_INPUT: FormSettingsInput = {
  name: '',
  success_redirect_url: '',
  is_active: true,
  accept_files: false,
  allowed_domains: '',
  notification_email_addresses: '',
  retention_days: '',
  delete_after_delivery: false,
  max_submissions: '',
  opens_at: '',
  closes_at: '',
  unique_field: '',
  closed_message: '',
  submitter_access: 'none',
  edit_until: '',
};

export function formSettingsOf(form: Form): FormSettingsInput {
  return {
    name: form.name,
    success_redirect_url: form.successRedirectUrl ?? '',
    is_active: form.isActive,
    accept_files: form.acceptFiles,
    allowed_domains: form.allowedDomains.join('\n'),
    notification_email_addresses: form.notificationEmailAddresses.join('\n'),
    retention_days: form.retentionDays === null ? '' : String(form.retentionDays),
    delete_after_delivery: form.deleteAfterDelivery,
    max_submissions: String(form.limits?.max_submissions ?? ''),
    opens_at: form.limits?.opens_at ?? '',
    closes_at: form.limits?.closes_at ?? '',
    unique_field: form.limits?.unique_field ?? '',
    closed_message: form.limits?.closed_message ?? '',
    submitter_access: form.submitterAccess,
    edit_until: form.editUntil ?? '',
  };
}

/** Reads the posted settings (urlencoded; an unticked checkbox is absent: false). */
export function readFormSettings(body: unknown): FormSettingsInput {
  const fields = (body ?? {}) as Record<string, unknown>;
  return {
    name: text(fields.name),
    success_redirect_url: text(fields.success_redirect_url).trim(),
    is_active: fields.is_active !== undefined,
    accept_files: fields.accept_files !== undefined,
    allowed_domains: text(fields.allowed_domains),
    notification_email_addresses: text(fields.notification_email_addresses),
    retention_days: text(fields.retention_days).trim(),
    delete_after_delivery: fields.delete_after_delivery !== undefined,
    max_submissions: text(fields.max_submissions).trim(),
    opens_at: text(fields.opens_at).trim(),
    closes_at: text(fields.closes_at).trim(),
    unique_field: text(fields.unique_field).trim(),
    closed_message: text(fields.closed_message),
    submitter_access: text(fields.submitter_access).trim() || 'none',
    edit_until: text(fields.edit_until).trim(),
  };
}

/** The gates as the API's body takes them: null when every input is empty. */
function limitsBody(input: FormSettingsInput) {
  if (LIMIT_INPUTS.every((name) => input[name].trim() === '')) return null;
  const orNull = (value: string) => (value.trim() === '' ? null : value);
  return {
    // Anything but a whole number is refused by the schema, with its message.
    max_submissions: input.max_submissions === '' ? null : Number(input.max_submissions),
    opens_at: orNull(input.opens_at),
    closes_at: orNull(input.closes_at),
    unique_field: orNull(input.unique_field),
    closed_message: orNull(input.closed_message),
  };
}

/**
 * Validates the settings with the API's own schema (create or update), so the page and
 * `POST /api/forms` / `PATCH /api/forms/{id}` accept and refuse exactly the same values.
 */
export function validateFormSettings(
  input: FormSettingsInput,
  mode: 'create' | 'update',
): { ok: true; changes: FormChanges & { name: string } } | { ok: false; errors: FieldErrors } {
  const body = {
    name: input.name,
    success_redirect_url: input.success_redirect_url === '' ? null : input.success_redirect_url,
    is_active: input.is_active,
    accept_files: input.accept_files,
    allowed_domains: entries(input.allowed_domains),
    notification_email_addresses: entries(input.notification_email_addresses),
    // Empty keeps for ever; anything else must be a whole number the schema accepts.
    retention_days: input.retention_days === '' ? null : Number(input.retention_days),
    delete_after_delivery: input.delete_after_delivery,
    // The settings page edits the gates; a new form starts without (its fields come later).
    limits: mode === 'update' ? limitsBody(input) : undefined,
    // Manage links too (docs/manage-links.md), beside the limits that cap their edit window.
    submitter_access: mode === 'update' ? input.submitter_access : undefined,
    edit_until: mode === 'update' ? (input.edit_until === '' ? null : input.edit_until) : undefined,
  };
  const parsed = (mode === 'create' ? createFormBody : updateFormBody).safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error, body) };
  return { ok: true, changes: { ...formChanges(parsed.data), name: parsed.data.name! } };
}

function fieldErrors(error: z.ZodError, body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const [field, index] = issue.path;
    // A gate's problem is shown at its own input (`limits.closes_at` at `closes_at`).
    const key = String(
      field === 'limits' && typeof index === 'string' ? index : field,
    ) as keyof FormSettingsInput;
    const list = body[key];
    // Name the entry of a list that is wrong, e.g. "not a host: must be a host name…".
    const entry = typeof index === 'number' && Array.isArray(list) ? `${list[index]}: ` : '';
    errors[key] ??= `${entry}${issue.message}`;
  }
  return errors;
}
