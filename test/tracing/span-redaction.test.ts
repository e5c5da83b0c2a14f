import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import {
  originOf,
  redactQuery,
  redactSpan,
  redactTarget,
  redactText,
} from '../../src/tracing/span-redaction';

// docs/tracing.md, "What is left out": the rules each exported span goes through.

describe('span redaction', () => {
  it('keeps query names and drops every value, and a bare token whole', () => {
    expect(redactQuery('token=abc&next=/app')).toBe('token=REDACTED&next=REDACTED');
    expect(redactQuery('s3cr3t-token-without-name%20')).toBe('REDACTED');
    expect(redactQuery('code=1&&state=2')).toBe('code=REDACTED&state=REDACTED');
  });

  it('names the endpoint token in ingest paths, and redacts targets', () => {
    expect(redactTarget('/f/AbC123/thanks?x=1')).toBe('/f/{endpoint_token}/thanks?x=REDACTED');
    expect(redactTarget('/json/AbC123')).toBe('/json/{endpoint_token}');
    expect(redactTarget('/reset?token=abc')).toBe('/reset?token=REDACTED');
    expect(redactTarget('/app/forms/12')).toBe('/app/forms/12');
    expect(redactTarget('/bot123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr/sendMessage')).toBe(
      '/bot{token}/sendMessage',
    );
  });

  it("keeps a manage link's submission id and drops its secret (docs/manage-links.md)", () => {
    const secret = 'A'.repeat(43);
    expect(redactTarget(`/s/42/${secret}`)).toBe('/s/42/{secret}');
    expect(redactTarget(`/s/42/${secret}/edit?x=1`)).toBe('/s/42/{secret}/edit?x=REDACTED');
    expect(redactText(`POST /s/42/${secret}/delete failed`)).toBe(
      'POST /s/42/{secret}/delete failed',
    );
  });

  it('cuts outgoing URLs to their origin', () => {
    expect(originOf('https://hooks.slack.com/services/T/B/secret?x=1')).toBe(
      'https://hooks.slack.com',
    );
    expect(originOf('https://user:pw@example.com:8443/p')).toBe('https://example.com:8443');
    expect(originOf('not a url')).toBe('REDACTED');
  });

  it('redacts URLs and targets in free text', () => {
    expect(
      redactText('POST https://discord.com/api/webhooks/1/tok failed; GET /invite?token=abc'),
    ).toBe('POST https://discord.com failed; GET /invite?token=REDACTED');
    expect(redactText('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Mozilla/5.0 (X11; Linux x86_64)');
    const token = '123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';
    expect(redactText(`POST /bot${token}/sendMessage failed; token ${token} refused`)).toBe(
      'POST /bot{token}/sendMessage failed; token REDACTED refused',
    );
  });

  it('rewrites the URL attributes of server and client spans apart', () => {
    const span = (kind: SpanKind, attributes: Record<string, string>) =>
      ({
        name: 'GET',
        kind,
        spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
        status: { code: 0 },
        attributes,
        links: [],
        events: [
          {
            name: 'exception',
            time: [0, 0],
            attributes: { 'exception.message': 'to https://h.example/x/y' },
          },
        ],
      }) as unknown as ReadableSpan;
    const server = redactSpan(
      span(SpanKind.SERVER, {
        'url.path': '/f/tok',
        'url.query': 'a=1',
        'http.target': '/f/tok?a=1',
      }),
    );
    expect(server.attributes).toEqual({
      'url.path': '/f/{endpoint_token}',
      'url.query': 'a=REDACTED',
      'http.target': '/f/{endpoint_token}?a=REDACTED',
    });
    const client = redactSpan(
      span(SpanKind.CLIENT, {
        'url.full': 'https://h.example/x/y?z=1',
        'url.path': '/x/y',
        'url.query': '?z=1',
        'server.address': 'h.example',
      }),
    );
    expect(client.attributes).toEqual({
      'url.full': 'https://h.example',
      'server.address': 'h.example',
    });
    expect(client.events[0]!.attributes).toEqual({ 'exception.message': 'to https://h.example' });
    expect(client.spanContext().spanId).toBe('b'.repeat(16));
  });
});
