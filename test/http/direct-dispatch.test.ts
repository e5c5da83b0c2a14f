import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../../src/http/kit/errors/http-error';
import { errorHandler, notFoundHandler } from '../../src/http/kit/middleware/errors';
import { defineRoute, type RouteContext } from '../../src/http/kit/routing/define-route';
import { directDispatch } from '../../src/http/kit/routing/direct-dispatch';

// src/http/kit/routing/direct-dispatch.ts on its own: the routes are given to it only (not to the
// router), so a request answers 200 only if the direct path took it.

const urls = { base: 'http://api.test', ingest: 'http://api.test' };
const ctx = { urls } as unknown as RouteContext;

const ingestPost = (path: '/json/{endpoint_token}' | '/f/{endpoint_token}', operationId: string) =>
  defineRoute({
    method: 'post',
    path,
    operationId,
    tag: 'Ingest',
    summary: 'probe',
    access: 'public',
    audit: { exempt: 'a test route' },
    query: z.object({ fail: z.enum(['throw', 'reject']).optional() }),
    responses: {
      200: { description: 'ok', body: z.object({ token: z.string(), via: z.string() }) },
    },
    errors: ['validation_failed', 'not_found'],
  }).handle(async ({ params, query }) => {
    if (query.fail === 'throw') throw new HttpError('not_found', 'thrown');
    if (query.fail === 'reject') await Promise.reject(new HttpError('not_found', 'rejected'));
    return { status: 200, body: { token: params.endpoint_token, via: operationId } };
  });

let base: string;
let server: http.Server;

beforeAll(async () => {
  const app = express();
  app.use(
    directDispatch(
      [ingestPost('/json/{endpoint_token}', 'json'), ingestPost('/f/{endpoint_token}', 'form')],
      ctx,
    ),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(urls, pino({ level: 'silent' }), { strictAnswers: true }));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (path: string, method = 'POST') => {
  const res = await fetch(`${base}${path}`, { method });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('direct dispatch of the ingest posts', () => {
  it('runs the route of each ingest path with its token', async () => {
    expect(await post('/json/abc123')).toEqual({
      status: 200,
      body: { token: 'abc123', via: 'json' },
    });
    expect(await post('/f/abc123')).toEqual({
      status: 200,
      body: { token: 'abc123', via: 'form' },
    });
    expect((await post('/json/abc123/?utm_source=x')).body).toMatchObject({ token: 'abc123' });
  });

  it('hands a thrown or rejected error to the error handler', async () => {
    for (const fail of ['throw', 'reject']) {
      const res = await post(`/json/abc123?fail=${fail}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: 'not_found',
        message: fail === 'throw' ? 'thrown' : 'rejected',
      });
    }
    expect((await post('/json/abc123?fail=other')).status).toBe(422);
  });

  it('leaves everything else to what follows it', async () => {
    for (const [path, method] of [
      ['/json/abc123', 'GET'],
      ['/JSON/abc123', 'POST'],
      ['/json/a%20b', 'POST'],
      ['/json/abc123/more', 'POST'],
      ['/jsonx/abc123', 'POST'],
    ] as const)
      expect((await post(path, method)).status, `${method} ${path}`).toBe(404);
  });

  it('refuses a route that is not an ingest post', () => {
    const other = defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'other',
      tag: 'Health',
      summary: 'not ingest',
      access: 'public',
      responses: { 204: { description: 'nothing' } },
      errors: [],
    }).handle(() => ({ status: 204 }));
    expect(() => directDispatch([other], ctx)).toThrow(/not an ingest post/);
  });
});
