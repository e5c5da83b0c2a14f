import type { AllowList } from '../../outbound/address-policy';
import type { UrlCheckOptions } from './plugin-configs';
import type { ConfigCheck } from '../plugin-type';
import { validateWebhookUrl, type HostLookup } from '../../outbound/destination-url';

/** What the URL policy is made of: the SSRF allow-list, the resolver and this service's URLs. */
export type UrlPolicySource = {
  webhookAllowList: AllowList;
  lookupHost: HostLookup;
  /** Where this service answers (own-origin.ts, ownServiceUrls), read at each check. */
  ownUrls: () => readonly string[];
};

/**
 * The options every creation-time URL check uses (the API's `POST /api/forms/{id}/plugins`,
 * the dashboard's webhook, Slack and Discord forms): built here once, so no caller can leave
 * out the loop check or the resolver.
 */
export function urlCheckOptions(source: UrlPolicySource): UrlCheckOptions {
  return {
    allowList: source.webhookAllowList,
    lookup: source.lookupHost,
    ownUrls: source.ownUrls(),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The host a URL (or a redacted `https://host`) points at, for names and summaries. */
export function hostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return '(hidden)';
  }
}

/** `{url}` checked as every webhook URL is: https, public addresses, no loop to this service. */
export async function checkUrlConfig(
  raw: unknown,
  urls: UrlCheckOptions,
): Promise<ConfigCheck<{ url: string }>> {
  const url = isRecord(raw) ? raw.url : undefined;
  if (typeof url !== 'string' || url.trim() === '')
    return { ok: false, errors: ['url: is required (an https:// URL)'] };
  const checked = await validateWebhookUrl(url.trim(), urls);
  return checked.ok ? { ok: true, config: { url: checked.url } } : checked;
}
