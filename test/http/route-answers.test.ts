import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, notFound } from '../../src/http/kit/errors/http-error';
import { errorHandler } from '../../src/http/kit/middleware/errors';
import { defineRoute, type RouteContext } from '../../src/http/kit/routing/define-route';
import { registerRoutes } from '../../src/http/kit/routing/register-routes';

const urls = { base: 'http://api.test', ingest: 'http://api.test' };

/** One public route whose handler misbehaves on demand. */
const probe = defineRoute({
  method: 'get',
  path: '/probe/{id}',
  operationId: 'probe',
  tag: 'Health',
  summary: 'test route',
  access: 'public',
  query: z.object({
    do: z.enum([
      'ok',
      'extra-field',
      'bad-body',
      'declared-error',
      'undeclared-error',
      'bad-status',
    ]),
  }),
  responses: { 200: { description: 'ok', body: z.object({ id: z.string(), n: z.number() }) } },
  errors: ['not_found'],
}).handle(({ params, query }) => {
  switch (query.do) {
    case 'ok':
      return { status: 200, body: { id: params.id, n: 1 } };
    case 'extra-field':
      return {
        status: 200,
        body: { id: params.id, n: 1, secret: 'x' } as { id: string; n: number },
      };
    case 'bad-body':
      return { status: 200, body: { id: params.id, n: 'one' as unknown as number } };
    case 'declared-error':
      throw notFound('probe');
    case 'undeclared-error':
      throw new HttpError('slug_taken', 'not declared');
    case 'bad-status':
      return { status: 201 as 200, body: { id: params.id, n: 1 } };
  }
});

const posted = defineRoute({
  method: 'post',
  path: '/probe/{id}',
  operationId: 'postProbe',
  tag: 'Health',
  summary: 'second method on the path',
  access: 'public',
  audit: { exempt: 'a test route' },
  responses: { 204: { description: 'nothing' } },
  errors: [],
}).handle(() => ({ status: 204 }));

async function serve(strictAnswers: boolean) {
  const app = express();
  registerRoutes(app, [probe, posted], { urls } as unknown as RouteContext);
  app.use(errorHandler(urls, pino({ level: 'silent' }), { strictAnswers }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (path: string, method = 'GET') => {
      const res = await fetch(`${base}${path}`, { method });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('answers are checked against their route definition (strict, as under test)', () => {
  let app: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => (app = await serve(true)));
  afterAll(() => app.close());

  it('sends a declared answer through its schema, dropping fields it does not declare', async () => {
    expect((await app.get('/probe/7?do=ok')).body).toEqual({ id: '7', n: 1 });
    expect((await app.get('/probe/7?do=extra-field')).body).toEqual({ id: '7', n: 1 });
  });

  it('answers a declared error as it is', async () => {
    const res = await app.get('/probe/7?do=declared-error');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('implies validation_failed for a route with a query', async () => {
    const res = await app.get('/probe/7?do=nothing');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.stringMatching(/^do: /)]);
  });

  it.each([
    ['undeclared-error', /probe answered 409 slug_taken/],
    ['bad-body', /probe 200: the body does not match its schema/],
    ['bad-status', /probe answered 201/],
  ])('refuses %s loudly: 500 undeclared_answer', async (what, message) => {
    const res = await app.get(`/probe/7?do=${what}`);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('undeclared_answer');
    expect(res.body.message).toMatch(message);
  });

  it('answers 405 with the Allow of the definitions on the path', async () => {
    const res = await app.get('/probe/7', 'DELETE');
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});

describe('without strict answers (production)', () => {
  let app: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => (app = await serve(false)));
  afterAll(() => app.close());

  it('passes an undeclared error on, and hides a broken body as internal_error', async () => {
    expect((await app.get('/probe/7?do=undeclared-error')).status).toBe(409);
    const broken = await app.get('/probe/7?do=bad-body');
    expect(broken.status).toBe(500);
    expect(broken.body.error).toBe('internal_error');
  });
});
