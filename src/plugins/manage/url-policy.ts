import type { AllowList } from '../../outbound/address-policy';
import type { UrlCheckOptions } from './plugin-configs';
import {
  validateWebhookUrl,
  type HostLookup,
  type WebhookUrlCheck,
} from '../../outbound/destination-url';

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

/** A webhook URL checked as every creation path checks it (validateWebhookUrl). */
export function checkWebhookUrl(url: unknown, source: UrlPolicySource): Promise<WebhookUrlCheck> {
  return validateWebhookUrl(url, urlCheckOptions(source));
}
