import { emailPluginConfig, MAX_EMAIL_RECIPIENTS } from '../manage/plugin-configs';
import { schemaCheck, type PluginTypeDeclaration } from '../plugin-type';

/** A mail to up to ten confirmed addresses, the subject a template (docs/plugins.md). */
export const emailType: PluginTypeDeclaration = {
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
  check: schemaCheck(emailPluginConfig),
  sealed: [],
  // An address grants nothing (and viewers read submitters' addresses anyway).
  redacted: { keep: ['recipients', 'subject'], origin: [] },
  defaultName: (config) => {
    const [first, ...rest] = config.recipients as string[];
    return `E-mail to ${first}${rest.length > 0 ? ` and ${rest.length} more` : ''}`;
  },
  summary: (visible) => (visible.recipients as string[] | undefined)?.join(', ') ?? '',
};
