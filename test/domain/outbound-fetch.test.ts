import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../src/outbound/address-policy';
import { systemLookup } from '../../src/outbound/destination-url';
import { createOutboundFetch, OutboundFetchError } from '../../src/outbound/outbound-fetch';

// The fetch-shaped adapter over the outbound sender's agent (src/outbound/outbound-fetch.ts).

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/silent') return; // never answers
    if (path === '/large') return res.end('x'.repeat(2048));
    if (path === '/moved') return res.writeHead(302, { location: '/elsewhere' }).end();
    if (path === '/empty') return res.writeHead(204).end();
    const body = await bodyOf(req);
    res.writeHead(201, [
      ['content-type', 'application/json'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    res.end(
      JSON.stringify({
        method: req.method,
        type: req.headers['content-type'] ?? null,
        agent: req.headers['user-agent'] ?? null,
        body,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const operator = (overrides: { readTimeoutMs?: number; maxResponseBytes?: number } = {}) =>
  createOutboundFetch({
    destinations: 'operator',
    connectTimeoutMs: 2_000,
    readTimeoutMs: overrides.readTimeoutMs ?? 2_000,
    lookupHost: systemLookup,
    maxResponseBytes: overrides.maxResponseBytes ?? 1024,
  });

describe('an operator destination', () => {
  it('answers a WHATWG Response: status, every header, the body; a form posted as fetch would', async () => {
    const http = operator();
    try {
      const res = await http.fetch(`${origin}/echo`, {
        method: 'POST',
        headers: { 'user-agent': 'a library/1' },
        body: new URLSearchParams({ code: 'abc' }),
        redirect: 'manual',
      });
      expect(res).toBeInstanceOf(Response);
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(await res.json()).toEqual({
        method: 'POST',
        type: 'application/x-www-form-urlencoded;charset=UTF-8',
        agent: 'a library/1',
        body: 'code=abc',
      });
      expect((await http.fetch(`${origin}/empty`)).status).toBe(204);
    } finally {
      await http.close();
    }
  });

  it('hands a redirect back without following it', async () => {
    const http = operator();
    try {
      const res = await http.fetch(`${origin}/moved`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/elsewhere');
    } finally {
      await http.close();
    }
  });

  it('refuses an answer larger than its cap, naming no query', async () => {
    const http = operator({ maxResponseBytes: 1024 });
    try {
      const failed = http.fetch(`${origin}/large?code=secret`);
      await expect(failed).rejects.toBeInstanceOf(OutboundFetchError);
      await expect(failed).rejects.toThrow(
        new OutboundFetchError(
          'too_large',
          `${origin}/large: the answer is larger than 1024 bytes`,
        ),
      );
    } finally {
      await http.close();
    }
  });

  it('gives up on a provider that never answers after the read timeout', async () => {
    const http = operator({ readTimeoutMs: 200 });
    const started = performance.now();
    try {
      await expect(http.fetch(`${origin}/silent`)).rejects.toMatchObject({
        failure: 'read_timeout',
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await http.close();
    }
  });

  it("ends with the caller's own abort reason, as fetch does", async () => {
    const http = operator();
    try {
      const failed = http.fetch(`${origin}/silent`, { signal: AbortSignal.timeout(100) });
      await expect(failed).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      await http.close();
    }
  });

  it('sends plain http only to this machine', async () => {
    const http = operator();
    try {
      await expect(http.fetch('http://192.0.2.1/')).rejects.toMatchObject({
        failure: 'blocked_address',
      });
    } finally {
      await http.close();
    }
  });
});

describe('a public destination', () => {
  it('keeps the sender guard: https only, no loopback address', async () => {
    const http = createOutboundFetch({
      connectTimeoutMs: 2_000,
      readTimeoutMs: 2_000,
      lookupHost: systemLookup,
      maxResponseBytes: 1024,
    });
    try {
      await expect(http.fetch(`${origin}/echo`)).rejects.toThrow(/https only/);
      await expect(http.fetch(`https://127.0.0.1:${new URL(origin).port}/`)).rejects.toMatchObject({
        failure: 'blocked_address',
      });
    } finally {
      await http.close();
    }
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::', false],
    ['192.0.2.1', false],
    ['localhost', false],
  ])('%s: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});
