import { type Attributes, type AttributeValue, SpanKind } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace';

/*
 * Traces carry no secrets (docs/tracing.md, "What is left out"). Reset, invitation,
 * confirmation and unsubscribe links carry their token in the query, the single sign-on
 * callback its `code` and `state`, ingest paths the form's endpoint token, and a Slack or
 * Discord webhook URL is itself the secret, a Teams workflow URL carries its `sig`, and the
 * Telegram Bot API has the bot's token in its path (`/bot<token>/sendMessage`). Every span
 * passes through here before export.
 */

export const REDACTED = 'REDACTED';

/** Paths whose segment is a token: the segment is replaced by the route's parameter name. */
const TOKEN_PATHS: Array<[RegExp, string]> = [
  [/^\/(f|json)\/[^/?#]+/, '/$1/{endpoint_token}'],
  [/^\/bot\d+:[^/?#]+/, '/bot{token}'],
  // A manage link (docs/manage-links.md): the submission's id stays, its secret goes.
  [/^\/s\/(\d+)\/[^/?#]+/, '/s/$1/{secret}'],
];

/** A Telegram bot token anywhere in text (the bot's id, a colon, 35 characters). */
const BOT_TOKEN_IN_TEXT = /\b\d{1,20}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g;

/** A query parameter's name worth keeping; anything else (a bare token) is replaced whole. */
const PLAIN_NAME = /^[A-Za-z][\w.[\]-]{0,39}$/;

/** `a=1&token=x` as `a=REDACTED&token=REDACTED`: the names stay, no value does. */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const name = part.split('=', 1)[0]!;
      return PLAIN_NAME.test(name) ? `${name}=${REDACTED}` : REDACTED;
    })
    .join('&');
}

export function redactPath(path: string): string {
  return TOKEN_PATHS.reduce((redacted, [pattern, name]) => redacted.replace(pattern, name), path);
}

/** An incoming request's target (`/path?query`), its tokens redacted. */
export function redactTarget(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return redactPath(target);
  const query = redactQuery(target.slice(at + 1));
  return `${redactPath(target.slice(0, at))}${query ? `?${query}` : ''}`;
}

/** An outgoing request's URL as scheme, host and port: a webhook URL's path can be its secret. */
export function originOf(url: string): string {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? REDACTED : origin;
  } catch {
    return REDACTED;
  }
}

/** An incoming request's full URL, its target redacted. */
function redactIncomingUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${redactTarget(`${parsed.pathname}${parsed.search}`)}`;
  } catch {
    return REDACTED;
  }
}

const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>]+/gi;
const TARGET_IN_TEXT = /(^|[\s"'(])(\/[^\s"'<>()?#]*)(\?[^\s"'<>()#]*)?/g;

/** Free text (span names, exception messages): URLs cut to their origin, targets redacted. */
export function redactText(text: string): string {
  return text
    .replace(BOT_TOKEN_IN_TEXT, REDACTED)
    .replace(URL_IN_TEXT, (url) => originOf(url))
    .replace(TARGET_IN_TEXT, (_, lead: string, path: string, query?: string) => {
      const rest = query ? redactQuery(query.slice(1)) : '';
      return `${lead}${redactPath(path)}${query ? `?${rest}` : ''}`;
    });
}

const redactValue = (value: AttributeValue | undefined): AttributeValue | undefined => {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? redactText(item) : item)) as never;
  return value;
};

/** Where each URL attribute goes, by the side of the request the span describes. */
function redactUrlAttributes(attributes: Attributes, kind: SpanKind): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = redactValue(value);
  const text = (key: string) =>
    typeof attributes[key] === 'string' ? (attributes[key] as string) : undefined;
  const rewrite = (key: string, fn: (value: string) => string) => {
    const value = text(key);
    if (value !== undefined) out[key] = fn(value);
  };
  if (kind === SpanKind.SERVER) {
    rewrite('url.full', redactIncomingUrl);
    rewrite('http.url', redactIncomingUrl);
    rewrite('url.path', redactPath);
    rewrite('url.query', redactQuery);
    rewrite('http.target', redactTarget);
  } else {
    rewrite('url.full', originOf);
    rewrite('http.url', originOf);
    for (const key of ['url.path', 'url.query', 'http.target']) delete out[key];
  }
  return out;
}

const redactEvent = (event: TimedEvent): TimedEvent => ({
  ...event,
  attributes: event.attributes && redactUrlAttributes(event.attributes, SpanKind.INTERNAL),
});

/** The span as it is exported: the same span, its names, URLs and messages redacted. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const own = span.spanContext();
  return {
    name: redactText(span.name),
    kind: span.kind,
    spanContext: () => own,
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status?.message
      ? { ...span.status, message: redactText(span.status.message) }
      : span.status,
    attributes: redactUrlAttributes(span.attributes, span.kind),
    links: span.links,
    // Workflow spans come from Temporal's sink, in an older shape: lists may be missing.
    events: (span.events ?? []).map(redactEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Hands `processor` every ended span redacted: the one place no secret gets past. */
export function redactingSpanProcessor(processor: SpanProcessor): SpanProcessor {
  return {
    onStart: (span, context) => processor.onStart(span, context),
    onEnd: (span) => processor.onEnd(redactSpan(span)),
    forceFlush: () => processor.forceFlush(),
    shutdown: () => processor.shutdown(),
  };
}
