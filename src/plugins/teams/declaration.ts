import type { PluginTypeDeclaration } from '../plugin-type';
import { checkUrlConfig, hostOf } from '../webhook/declaration';

/**
 * Microsoft Teams: the URL of a Teams workflow ("When a Teams webhook request is received",
 * Power Automate), checked as every webhook URL is. Its `sig=` query is the secret: the URL
 * is sealed and never shown again, and its host is kept beside it, in the clear, so pages and
 * answers can say where the plugin delivers.
 */
export const teamsType: PluginTypeDeclaration = {
  key: 'teams',
  label: 'Microsoft Teams',
  noun: 'a Microsoft Teams channel',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'url',
      label: 'Teams workflow URL (https only)',
      // A password field: the URL is the secret, and a refused form does not echo it back.
      input: 'secret',
      required: true,
      placeholder: 'https://….logic.azure.com/workflows/…&sig=…',
      hint: 'In Teams: the channel’s Workflows, “Post to a channel when a webhook request is received”; copy the URL it gives. It is shown only once, here.',
    },
  ],
  async check(raw, urls) {
    const checked = await checkUrlConfig(raw, urls);
    if (!checked.ok) return checked;
    const url = String(checked.config.url);
    return { ok: true, config: { url, host: new URL(url).host } };
  },
  sealed: ['url'],
  redacted: { keep: ['host'], origin: [] },
  defaultName: (config) => `Teams workflow at ${hostOf(config.url)}`,
  summary: (visible) =>
    typeof visible.host === 'string' ? `https://${visible.host}/…` : '(hidden)',
};
