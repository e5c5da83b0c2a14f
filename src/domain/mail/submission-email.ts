import { createHash } from 'node:crypto';
import type { Form, Submission, SubmissionFile } from '../../db/entities';
import escapeHtml from 'escape-html';
import type { MailAddress, OutgoingMail } from './mailer';

export type SubmissionEmailInput = {
  form: Pick<Form, 'id' | 'name'>;
  submission: Pick<Submission, 'id' | 'createdAt' | 'payloadJson' | 'specialNormalized'>;
  /** The submission's stored uploads; only these are shown as files. */
  files: Array<Pick<SubmissionFile, 'id' | 'fieldName' | 'filename' | 'contentType' | 'size'>>;
  recipients: string[];
  /** Public API base URL (BASE_URL), for the submission and download links. */
  baseUrl: string;
  /** Right-hand side of the Message-ID (the MAIL_FROM domain). */
  senderDomain: string;
};

type FileValue = { filename: string; contentType: string; size: number; url: string };
type DisplayValue =
  { kind: 'text'; text: string } | { kind: 'empty' } | ({ kind: 'file' } & FileValue);
type DisplayField = { name: string; values: DisplayValue[] };

/** Special fields lead (they say who wrote and what); the rest follow in stored order. */
const LEADING_FIELDS = ['name', 'email', 'message'];

/** The notification e-mail about one submission, sent to the form's addresses. */
export function buildSubmissionEmail(input: SubmissionEmailInput): OutgoingMail {
  const { form, submission, baseUrl } = input;
  const recipients = notificationRecipients(input.recipients);
  const formName = collapseWhitespace(form.name) || `form ${form.id}`;
  const subject = `New submission to "${formName}"`;
  const submissionUrl = `${baseUrl}/api/submissions/${submission.id}`;
  const fields = displayFields(input);
  const replyTo = replyAddress(submission.specialNormalized);
  const received = formatTime(submission.createdAt);
  const facts = { formName, formId: form.id, submissionId: submission.id, received, submissionUrl };
  return {
    to: recipients,
    subject,
    text: plainText(subject, fields, facts, replyTo),
    html: html(subject, fields, facts, replyTo),
    messageId: notificationMessageId(submission.id, recipients, input.senderDomain),
    ...(replyTo ? { replyTo } : {}),
    headers: {
      // RFC 3834: vacation responders must not answer a machine-sent notification.
      'Auto-Submitted': 'auto-generated',
      'X-Formward-Form-Id': String(form.id),
      'X-Formward-Submission-Id': String(submission.id),
    },
  };
}

/** The form's addresses trimmed, lower-cased and without duplicates, in their order. */
export function notificationRecipients(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const address of addresses) {
    const normalized = address.trim().toLowerCase();
    if (normalized) seen.add(normalized);
  }
  return [...seen];
}

/**
 * The same submission to the same addressees always gets the same Message-ID, so a retried
 * send is recognisable (and de-duplicated by clients) as the same message; a changed address
 * list is a different message.
 */
export function notificationMessageId(
  submissionId: string,
  recipients: readonly string[],
  senderDomain: string,
): string {
  const addressees = [...notificationRecipients(recipients)].sort().join(',');
  const digest = createHash('sha256').update(addressees).digest('hex').slice(0, 16);
  return `<submission-${submissionId}.${digest}@${senderDomain}>`;
}

function replyAddress(special: Submission['specialNormalized']): MailAddress | undefined {
  if (!special?.email) return undefined;
  const name = collapseWhitespace(special.name ?? '').slice(0, 200);
  return name ? { name, address: special.email } : { address: special.email };
}

function displayFields(input: SubmissionEmailInput): DisplayField[] {
  const payload = input.submission.payloadJson ?? {};
  const names = Object.keys(payload);
  const ordered = [
    ...LEADING_FIELDS.filter((name) => names.includes(name)),
    ...names.filter((name) => !LEADING_FIELDS.includes(name)),
  ];
  return ordered.map((name) => {
    const value = payload[name];
    const items = Array.isArray(value) ? value : [value];
    return { name, values: items.map((item) => displayValue(item, name, input)) };
  });
}

function displayValue(
  value: unknown,
  fieldName: string,
  input: SubmissionEmailInput,
): DisplayValue {
  if (value === null || value === undefined || value === '') return { kind: 'empty' };
  if (typeof value === 'string') return { kind: 'text', text: value.replace(/\r\n?/g, '\n') };
  if (typeof value === 'number' || typeof value === 'boolean') {
    return { kind: 'text', text: String(value) };
  }
  const file = storedFile(value, fieldName, input);
  if (file) return { kind: 'file', ...file };
  return { kind: 'text', text: JSON.stringify(value, null, 2) };
}

/**
 * A payload entry is shown as a file only when it points at an upload stored with this
 * submission: JSON ingest can send any object, and a look-alike must not become a link.
 */
function storedFile(
  value: unknown,
  fieldName: string,
  input: SubmissionEmailInput,
): FileValue | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const url = (value as { url?: unknown }).url;
  if (typeof url !== 'string') return null;
  const fileId = /\/api\/submissions\/(\d+)\/files\/(\d+)$/.exec(url);
  if (!fileId || fileId[1] !== String(input.submission.id)) return null;
  const stored = input.files.find(
    (file) => String(file.id) === fileId[2] && file.fieldName === fieldName,
  );
  if (!stored) return null;
  return {
    filename: stored.filename,
    contentType: stored.contentType,
    size: stored.size,
    url: `${input.baseUrl}/api/submissions/${input.submission.id}/files/${stored.id}`,
  };
}

type Facts = {
  formName: string;
  formId: string;
  submissionId: string;
  received: string;
  submissionUrl: string;
};

function plainText(
  subject: string,
  fields: DisplayField[],
  facts: Facts,
  replyTo: MailAddress | undefined,
): string {
  const lines = [subject, ''];
  if (fields.length === 0) lines.push('(the submission has no fields)');
  for (const field of fields) {
    const blocks = field.values.map(textLines);
    if (blocks.length === 1 && blocks[0]!.length === 1) {
      lines.push(`${field.name}: ${blocks[0]![0]}`);
      continue;
    }
    lines.push(`${field.name}:`);
    if (blocks.length === 0) lines.push('  (none)');
    for (const block of blocks) {
      const [first = '', ...rest] = block;
      if (blocks.length > 1) lines.push(`  - ${first}`, ...rest.map((line) => `    ${line}`));
      else lines.push(...block.map((line) => `  ${line}`));
    }
  }
  lines.push(
    '',
    '--',
    `Form: ${facts.formName} (id ${facts.formId})`,
    `Submission: ${facts.submissionId}, received ${facts.received}`,
    `View it: ${facts.submissionUrl} (with an API key that can read submissions)`,
  );
  if (replyTo) lines.push(`Reply to this e-mail to answer ${formatAddress(replyTo)}.`);
  return `${lines.join('\n')}\n`;
}

function textLines(value: DisplayValue): string[] {
  switch (value.kind) {
    case 'empty':
      return ['(empty)'];
    case 'text':
      return value.text.split('\n');
    case 'file':
      return [`${value.filename} (${value.contentType}, ${formatSize(value.size)})`, value.url];
  }
}

function html(
  subject: string,
  fields: DisplayField[],
  facts: Facts,
  replyTo: MailAddress | undefined,
): string {
  const cell =
    'padding:6px 10px;border-bottom:1px solid #e5e5e5;vertical-align:top;text-align:left';
  const rows = fields.map((field) => {
    const values =
      field.values.length === 1
        ? htmlValue(field.values[0]!)
        : field.values.length === 0
          ? '<em>(none)</em>'
          : `<ul style="margin:0;padding-left:18px">${field.values
              .map((value) => `<li>${htmlValue(value)}</li>`)
              .join('')}</ul>`;
    return `<tr><th style="${cell};white-space:nowrap">${escapeHtml(field.name)}</th><td style="${cell}">${values}</td></tr>`;
  });
  const table =
    rows.length > 0
      ? `<table style="border-collapse:collapse;margin:12px 0">\n${rows.join('\n')}\n</table>`
      : '<p><em>(the submission has no fields)</em></p>';
  const reply = replyTo
    ? `<br>Reply to this e-mail to answer ${escapeHtml(formatAddress(replyTo))}.`
    : '';
  return `<!doctype html>
<html>
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#222;font-size:14px">
<h2 style="font-size:18px;margin:0 0 8px">${escapeHtml(subject)}</h2>
${table}
<p style="color:#666;font-size:12px">Form: ${escapeHtml(facts.formName)} (id ${escapeHtml(facts.formId)})<br>
Submission ${escapeHtml(facts.submissionId)}, received ${escapeHtml(facts.received)}<br>
<a href="${escapeHtml(facts.submissionUrl)}">${escapeHtml(facts.submissionUrl)}</a> (with an API key that can read submissions)${reply}</p>
</body>
</html>
`;
}

function htmlValue(value: DisplayValue): string {
  switch (value.kind) {
    case 'empty':
      return '<em>(empty)</em>';
    case 'text':
      return `<span style="white-space:pre-wrap">${escapeHtml(value.text)}</span>`;
    case 'file':
      return `<a href="${escapeHtml(value.url)}">${escapeHtml(value.filename)}</a> (${escapeHtml(value.contentType)}, ${escapeHtml(formatSize(value.size))})`;
  }
}

function formatAddress(address: MailAddress): string {
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

/** `2026-05-01 12:00:00 UTC` */
function formatTime(date: Date): string {
  return `${new Date(date).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
