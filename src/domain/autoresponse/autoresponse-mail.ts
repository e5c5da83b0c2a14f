import type { OutgoingMail } from '../mail/mailer';
import {
  renderBody,
  renderSubject,
  type Autoresponse,
  type MergeValues,
} from './autoresponse-text';

/** The line under every autoresponse: why it came, and the way out (also in the headers). */
export function autoresponseFooter(unsubscribeUrl: string): string {
  return (
    '-- \nThis is an automatic reply to a form submission made with this address.\n' +
    `To receive no more e-mail from this sender: ${unsubscribeUrl}\n`
  );
}

/**
 * The submission's receipt (docs/receipts.md) under the body, on a line of its own so it can
 * be copied whole.
 */
export function receiptSection(receipt: string): string {
  return (
    'Your receipt: the form service signed what it received from you. Keep it as proof ' +
    `of this submission:\n${receipt}\n\n`
  );
}

/**
 * The submitter's manage link (docs/manage-links.md) under the body: private, and what it
 * lets them do.
 */
export function manageLinkSection(url: string): string {
  return (
    'Your private link to see this submission (and, if the form allows, change or delete ' +
    `it). Anyone with it can open your submission, so keep it to yourself:\n${url}\n\n`
  );
}

/**
 * The autoresponse to one submitter (docs/autoresponse.md): plain text, the account's subject
 * and body with the merge tags filled in, `Reply-To` the account's `reply_to`, marked
 * `Auto-Submitted: auto-replied` (RFC 3834, so auto-responders do not answer it), with the
 * submission's receipt under the body. The caller
 * adds the one-click unsubscribe headers (recipient-copies.ts, copyFor). Its Message-ID is
 * the delivery id's, so a retry is recognisably the same message.
 */
export function buildAutoresponseMail(input: {
  to: string;
  settings: Autoresponse;
  values: MergeValues;
  deliveryId: string;
  senderDomain: string;
  unsubscribeUrl: string;
  /** The submission's signed receipt (docs/receipts.md). */
  receipt: string;
  /** The submitter's manage link (docs/manage-links.md); null: the form gives none. */
  manageUrl?: string | null;
}): OutgoingMail {
  const body = renderBody(input.settings.body, input.values).replace(/\s+$/u, '');
  return {
    to: [input.to],
    subject: renderSubject(input.settings.subject, input.values),
    text:
      `${body}\n\n${input.manageUrl ? manageLinkSection(input.manageUrl) : ''}` +
      `${receiptSection(input.receipt)}${autoresponseFooter(input.unsubscribeUrl)}`,
    messageId: `<${input.deliveryId}@${input.senderDomain}>`,
    ...(input.settings.reply_to && { replyTo: { address: input.settings.reply_to } }),
    headers: { 'Auto-Submitted': 'auto-replied' },
  };
}
