import type { Form } from '../../domain/entities';
import {
  renderBody,
  renderSubject,
  sampleValues,
  type Autoresponse,
} from '../../domain/autoresponse/autoresponse-text';
import { autoresponseSchema } from './autoresponse-schemas';

/** The autoresponse section of a form's page as typed (strings), to show again after an error. */
export type AutoresponseInput = {
  enabled: boolean;
  subject: string;
  body: string;
  reply_to: string;
};

export type AutoresponseErrors = Partial<Record<'subject' | 'body' | 'reply_to', string>>;

/** What the section shows: the fields, their problems, and the preview (plain text, escaped by the template). */
export type AutoresponseSection = {
  input: AutoresponseInput;
  errors: AutoresponseErrors;
  preview: { subject: string; body: string; replyTo: string | null } | null;
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function autoresponseInputOf(form: Pick<Form, 'autoresponse'>): AutoresponseInput {
  const settings = form.autoresponse;
  return {
    enabled: settings !== null && settings !== undefined,
    subject: settings?.subject ?? 'Thank you for contacting {form}',
    body:
      settings?.body ??
      'Hello {name},\n\nThank you for your message. We received it and will answer soon.\n',
    reply_to: settings?.reply_to ?? '',
  };
}

/** Reads the posted section (urlencoded; an unticked checkbox is absent). */
export function readAutoresponseInput(body: unknown): AutoresponseInput {
  const fields = (body ?? {}) as Record<string, unknown>;
  return {
    enabled: fields.autoresponse_enabled !== undefined,
    subject: text(fields.autoresponse_subject),
    // Browsers post a textarea's lines with CRLF; the API and the preview use LF.
    body: text(fields.autoresponse_body).replace(/\r\n?/g, '\n'),
    reply_to: text(fields.autoresponse_reply_to).trim(),
  };
}

/**
 * Validates the section with the API's own schema, so the page and PATCH /api/forms/{id}
 * accept the same values: unticked, the autoresponse is removed (null).
 */
export function validateAutoresponse(
  input: AutoresponseInput,
): { ok: true; autoresponse: Autoresponse | null } | { ok: false; errors: AutoresponseErrors } {
  if (!input.enabled) return { ok: true, autoresponse: null };
  const parsed = autoresponseSchema.safeParse({
    subject: input.subject,
    body: input.body,
    reply_to: input.reply_to === '' ? null : input.reply_to,
  });
  if (parsed.success) return { ok: true, autoresponse: parsed.data };
  const errors: AutoresponseErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as keyof AutoresponseErrors;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The section, with the preview of what a submitter would get (sample values in the tags). */
export function autoresponseSection(
  formName: string,
  input: AutoresponseInput,
  errors: AutoresponseErrors = {},
): AutoresponseSection {
  const values = sampleValues(formName);
  const preview =
    input.subject.trim() === '' && input.body.trim() === ''
      ? null
      : {
          subject: renderSubject(input.subject, values),
          body: renderBody(input.body, values),
          replyTo: input.reply_to || null,
        };
  return { input, errors, preview };
}
