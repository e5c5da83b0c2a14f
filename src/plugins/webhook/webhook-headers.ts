import { z } from 'zod';
import { SIGNATURE_HEADERS } from './signatures';
import { problemsAt } from '../manage/conditions';

/*
 * A webhook's own headers (docs/plugins.md, "Webhook headers"): up to ten `{name, value}`,
 * e.g. an `Authorization` the receiver wants. Values are sealed at rest like any plugin
 * secret (plugin-secrets.ts) and shown masked. Names that would change how the request is
 * framed or routed, or pass for our signature, are refused; the delivery sends ours last, so
 * they win anyway (src/plugins/webhook/delivery.ts).
 */

export const MAX_WEBHOOK_HEADERS = 10;
export const MAX_HEADER_NAME_LENGTH = 100;
export const MAX_HEADER_VALUE_LENGTH = 1000;

/** Names a webhook may not set (lower case); and any starting with a reserved prefix. */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
  ...Object.values(SIGNATURE_HEADERS),
]);
export const RESERVED_HEADER_PREFIXES = ['webhook-', 'x-formward-', 'proxy-'] as const;

/** RFC 9110 `token`: what a header name may be. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export type WebhookHeader = { name: string; value: string };

/** One header as given; `value` absent means "keep the stored one" on an update only. */
const headerInput = z.object(
  {
    name: z
      .string('must be a header name')
      .trim()
      .min(1, 'must be a header name')
      .max(MAX_HEADER_NAME_LENGTH, `must be at most ${MAX_HEADER_NAME_LENGTH} characters`)
      .regex(HTTP_TOKEN, "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)"),
    value: z
      .string('must be text')
      .max(MAX_HEADER_VALUE_LENGTH, `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`)
      .refine((value) => !/[\r\n\0]/.test(value), 'must not contain line breaks')
      .optional(),
  },
  'must be an object {name, value}',
);

const headersInput = z
  .array(z.unknown(), 'must be a list of {name, value}')
  .max(MAX_WEBHOOK_HEADERS, `must have at most ${MAX_WEBHOOK_HEADERS} headers`);

export type WebhookHeaderInput = z.output<typeof headerInput>;

/** Why a name is refused, or null when a webhook may set it. */
function reservedReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (RESERVED_HEADER_NAMES.has(lower) || RESERVED_HEADER_PREFIXES.some((p) => lower.startsWith(p)))
    return `"${name}" is set by Formward and cannot be replaced`;
  return null;
}

/**
 * Headers as given, checked: shape and bounds, names HTTP tokens, not reserved and unique
 * ignoring case. `stored` (the plugin's opened headers, on an update) fills an entry given
 * without a value; on a create every entry needs one. Problems read `headers.N.…`.
 */
export function checkWebhookHeaders(
  raw: unknown,
  stored: readonly WebhookHeader[] = [],
): { ok: true; headers: WebhookHeader[] } | { ok: false; errors: string[] } {
  if (raw === undefined || raw === null) return { ok: true, headers: [] };
  const parsed = headersInput.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: problemsAt('headers', parsed.error) };
  const errors: string[] = [];
  const seen = new Set<string>();
  const headers: WebhookHeader[] = [];
  parsed.data.forEach((item, index) => {
    const at = `headers.${index}`;
    const header = headerInput.safeParse(item);
    if (!header.success) {
      errors.push(...problemsAt(at, header.error));
      // The name may still be judged when only the value was wrong.
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && reservedReason(name.trim()))
        errors.push(`${at}.name: ${reservedReason(name.trim())}`);
      return;
    }
    const { name } = header.data;
    const lower = name.toLowerCase();
    const reserved = reservedReason(name);
    if (reserved) errors.push(`${at}.name: ${reserved}`);
    else if (seen.has(lower)) errors.push(`${at}.name: "${name}" is given twice`);
    seen.add(lower);
    const value =
      header.data.value ?? stored.find((kept) => kept.name.toLowerCase() === lower)?.value ?? null;
    if (value === null) errors.push(`${at}.value: is required for "${name}"`);
    else headers.push({ name, value });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, headers };
}

/** The stored headers of a config (opened or sealed, as the config is). */
export function headersOf(config: Record<string, unknown>): WebhookHeader[] {
  const headers = config.headers;
  if (!Array.isArray(headers)) return [];
  return headers.filter(
    (h): h is WebhookHeader =>
      typeof h === 'object' &&
      h !== null &&
      typeof h.name === 'string' &&
      typeof h.value === 'string',
  );
}
