import { emailPluginConfig, MAX_EMAIL_RECIPIENTS, type EmailPluginConfig } from './email-config';
import { definePluginType, schemaCheck } from '../plugin-type';
import { emailDelivery } from './delivery';

/** A mail to up to ten confirmed addresses, the subject a template (docs/plugins.md). */
export const emailType = definePluginType<EmailPluginConfig>({
  key: 'email',
  label: 'E-mail',
  noun: 'an e-mail plugin',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'recipients',
      label: `Recipients (1 to ${MAX_EMAIL_RECIPIENTS} addresses, separated by commas or new lines)`,
      input: 'list',
      required: true,
    },
    {
      name: 'subject',
      label: 'Subject (placeholders: {form}, {id}, {field:name})',
      input: 'text',
      required: false,
      placeholder: 'New submission to {form}',
    },
  ],
  config: emailPluginConfig,
  check: schemaCheck(emailPluginConfig),
  sealed: [],
  // An address grants nothing (and viewers read submitters' addresses anyway).
  redacted: { keep: ['recipients', 'subject'], origin: [] },
  defaultName: (config) => {
    const [first, ...rest] = config.recipients;
    return `E-mail to ${first}${rest.length > 0 ? ` and ${rest.length} more` : ''}`;
  },
  summary: (visible) =>
    Array.isArray(visible.recipients) ? visible.recipients.map(String).join(', ') : '',
  // Each address confirms before it is mailed (src/domain/recipients/confirmations.ts).
  recipients: (config) => config.recipients,
  // The mail lists the uploads: read with the plugin and the submission.
  reads: { files: true },
  delivery: emailDelivery,
});
