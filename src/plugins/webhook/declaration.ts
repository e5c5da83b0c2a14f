import { validateWebhookUrl } from '../../outbound/destination-url';
import type { ConfigCheck, PluginConfig, PluginTypeDeclaration } from '../plugin-type';
import { checkWebhookHeaders } from './webhook-headers';

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

/** `{url, headers?}`: the URL as checkUrlConfig checks it, the headers (webhook-headers.ts). */
async function checkWebhookConfig(
  raw: unknown,
  urls: Parameters<typeof validateWebhookUrl>[1],
): Promise<ConfigCheck> {
  const headers = checkWebhookHeaders((raw as PluginConfig | null)?.headers);
  const url = await checkUrlConfig(raw, urls);
  const errors = [...(url.ok ? [] : url.errors), ...(headers.ok ? [] : headers.errors)];
  if (!url.ok || !headers.ok) return { ok: false, errors };
  const config: PluginConfig = { ...url.config };
  if (headers.headers.length > 0) config.headers = headers.headers;
  return { ok: true, config };
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
  check: checkWebhookConfig,
  sealed: [],
  // Header values (an `Authorization`, an API key) are secrets: sealed, masked, never shown
  // to a redacted reader (who keeps only the URL's origin).
  sealedInLists: [{ list: 'headers', key: 'value' }],
  redacted: { keep: [], origin: ['url'] },
  defaultName: (config) => `Webhook to ${hostOf(config.url)}`,
  summary: (visible) => String(visible.url ?? '(hidden)'),
};
