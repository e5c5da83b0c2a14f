import type { HostLookup } from '../../outbound/destination-url';
import type { AllowList } from '../../outbound/address-policy';

/** Line breaks in a header value would start a new header: they become spaces. */
export function withoutLineBreaks(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** What the URL check needs: the SSRF policy, the resolver and this service's own URLs. */
export type UrlCheckOptions = {
  allowList: AllowList;
  lookup?: HostLookup;
  ownUrls?: readonly string[];
};

/** A submitted value as one line of text: arrays joined, objects as JSON. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
