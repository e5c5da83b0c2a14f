import { z } from 'zod';
import { definePluginType } from '../plugin-type';
import { checkUrlConfig, hostOf } from '../manage/url-policy';
import { teamsDelivery } from './delivery';

/** A stored config (the URL opened): the workflow URL and its host. */
const teamsConfig = z.object({ url: z.string(), host: z.string() });

/**
 * Microsoft Teams: the URL of a Teams workflow ("When a Teams webhook request is received",
 * Power Automate), checked as every webhook URL is. Its `sig=` query is the secret: the URL
 * is sealed and never shown again, and its host is kept beside it, in the clear, so pages and
 * answers can say where the plugin delivers.
 */
export const teamsType = definePluginType<z.output<typeof teamsConfig>>({
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
  config: teamsConfig,
  async check(raw, urls) {
    const checked = await checkUrlConfig(raw, urls);
    if (!checked.ok) return checked;
    const { url } = checked.config;
    return { ok: true, config: { url, host: new URL(url).host } };
  },
  sealed: ['url'],
  redacted: { keep: ['host'], origin: [] },
  defaultName: (config) => `Teams workflow at ${hostOf(config.url)}`,
  summary: (visible) =>
    typeof visible.host === 'string' ? `https://${visible.host}/…` : '(hidden)',
  delivery: teamsDelivery,
});
