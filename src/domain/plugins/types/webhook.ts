import { validateWebhookUrl } from '../webhook-url';
import type { PluginConfig, PluginTypeDeclaration } from '../plugin-type';

/** The host a URL (or a redacted `https://host`) points at, for names and summaries. */
export function hostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return '(hidden)';
  }
}

/** `{url}` checked as every webhook URL is: https, public addresses, no loop to this service. */
export async function checkUrlConfig(raw: unknown, urls: Parameters<typeof validateWebhookUrl>[1]) {
  const url = (raw as PluginConfig | null)?.url;
  if (typeof url !== 'string' || url.trim() === '')
    return { ok: false as const, errors: ['url: is required (an https:// URL)'] };
  const checked = await validateWebhookUrl(url.trim(), urls);
  return checked.ok ? { ok: true as const, config: { url: checked.url } } : checked;
}

/** A signed JSON POST to the customer's own receiver (docs/webhooks.md). */
export const webhookType: PluginTypeDeclaration = {
  key: 'webhook',
  label: 'Webhook',
  noun: 'a webhook',
  createdThrough: 'api',
  signs: true,
  fields: [
    {
      name: 'url',
      label: 'URL (https only, public addresses only)',
      input: 'url',
      required: true,
      placeholder: 'https://example.com/hooks/formward',
    },
  ],
  check: checkUrlConfig,
  sealed: [],
  redacted: { keep: [], origin: ['url'] },
  defaultName: (config) => `Webhook to ${hostOf(config.url)}`,
  summary: (visible) => String(visible.url ?? '(hidden)'),
};
