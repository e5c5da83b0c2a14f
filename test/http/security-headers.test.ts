import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { helmetOptions, securityHeaders } from '../../src/http/kit/middleware/security-headers';

// src/http/kit/middleware/security-headers.ts sets helmet's headers from one list read at start:
// an answer must carry exactly what helmet itself would have set, for either kind of URL.

async function headersOf(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => void res.send('ok'));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await res.text();
    return Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('the security headers', () => {
  it.each(['http://forms.test', 'https://forms.test'])("are helmet's own, for %s", async (base) => {
    const ours = await headersOf(securityHeaders(base));
    expect(ours).toEqual(await headersOf(helmet(helmetOptions(base))));
    expect(ours['x-frame-options']).toBe('DENY');
    expect(ours['content-security-policy']).toContain("frame-ancestors 'none'");
    expect('strict-transport-security' in ours).toBe(base.startsWith('https://'));
  });
});
