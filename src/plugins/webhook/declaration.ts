import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { UrlCheckOptions } from '../manage/plugin-configs';
import { checkUrlConfig, hostOf } from '../manage/url-policy';
import { definePluginType, type ConfigCheck } from '../plugin-type';
import { webhookDelivery } from './delivery';
import { checkWebhookHeaders } from './webhook-headers';

/** A stored config (header values opened): the URL and the headers it sends, if any. */
const webhookConfig = z.object({
  url: z.string(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});
type WebhookConfig = z.output<typeof webhookConfig>;

/** `{url, headers?}`: the URL as checkUrlConfig checks it, the headers (webhook-headers.ts). */
async function checkWebhookConfig(
  raw: unknown,
  urls: UrlCheckOptions,
): Promise<ConfigCheck<WebhookConfig>> {
  const given = typeof raw === 'object' && raw !== null ? (raw as { headers?: unknown }) : {};
  const headers = checkWebhookHeaders(given.headers);
  const url = await checkUrlConfig(raw, urls);
  const errors = [...(url.ok ? [] : url.errors), ...(headers.ok ? [] : headers.errors)];
  if (!url.ok || !headers.ok) return { ok: false, errors };
  return {
    ok: true,
    config: headers.headers.length > 0 ? { ...url.config, headers: headers.headers } : url.config,
  };
}

/**
 * A new set of headers (an update's `headers`, docs/plugins.md "Webhook headers"): an entry
 * given without a value keeps the value stored under that name; null when nothing changed.
 */
function changeHeaders(stored: WebhookConfig, given: unknown) {
  const kept = stored.headers ?? [];
  const checked = checkWebhookHeaders(given, kept);
  if (!checked.ok) return checked;
  if (isDeepStrictEqual(checked.headers, kept)) return { ok: true as const, config: null };
  const { headers: _old, ...rest } = stored;
  const config = checked.headers.length > 0 ? { ...rest, headers: checked.headers } : rest;
  return { ok: true as const, config };
}

/** A signed JSON POST to the customer's own receiver (docs/webhooks.md). */
export const webhookType = definePluginType<WebhookConfig>({
  key: 'webhook',
  label: 'Webhook',
  noun: 'a webhook',
  createdThrough: 'api',
  signs: true,
  changeNoun: 'webhook',
  fields: [
    {
      name: 'url',
      label: 'URL (https only, public addresses only)',
      input: 'url',
      required: true,
      placeholder: 'https://example.com/hooks/formward',
    },
  ],
  config: webhookConfig,
  check: checkWebhookConfig,
  sealed: [],
  // Header values (an `Authorization`, an API key) are secrets: sealed, masked, never shown
  // to a redacted reader (who keeps only the URL's origin).
  sealedInLists: [{ list: 'headers', key: 'value' }],
  redacted: { keep: [], origin: ['url'] },
  defaultName: (config) => `Webhook to ${hostOf(config.url)}`,
  summary: (visible) => String(visible.url ?? '(hidden)'),
  createdSummary: (config) => `webhook to ${hostOf(config.url)}`,
  changeHeaders,
  delivery: webhookDelivery,
});
