import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePage } from '../../src/http/kit/routing/define-page';
import { registerPages } from '../../src/http/kit/routing/register-pages';
import type { AppContext } from '../../src/runtime/app-context';

// A page that streams must commit its audit entry first (docs/audit-log.md): a write before
// it throws, so a download cannot go out unrecorded. With nobody acting (a signed-out page
// whose handler names no actor) the commit writes nothing and needs no database.

const streamed = definePage({
  method: 'get',
  path: '/stream',
  access: 'guest',
  audit: { action: 'test.streamed' },
}).handle(({ req, res }) => {
  if (req.query.commit === '1') return res.end('committed first');
  res.write('too early');
  res.end();
});

const committed = definePage({
  method: 'get',
  path: '/committed',
  access: 'guest',
  audit: { action: 'test.streamed' },
}).handle(async ({ res, audit }) => {
  await audit.commit();
  res.write('after the commit, ');
  res.end('streamed');
});

let base = '';
let close: () => void = () => undefined;
beforeAll(async () => {
  const app = express();
  const router = express.Router();
  registerPages(router, [streamed, committed], {} as AppContext);
  app.use(router);
  const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    res.status(500).end(error.message);
  };
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('an audited page that streams', () => {
  it('is refused when it writes before committing its entry', async () => {
    const res = await fetch(`${base}/stream`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('GET /stream: audit.commit() must come before streaming');
  });

  it('streams once the entry is committed; an answer that only ends waits for the commit', async () => {
    expect(await (await fetch(`${base}/committed`)).text()).toBe('after the commit, streamed');
    expect(await (await fetch(`${base}/stream?commit=1`)).text()).toBe('committed first');
  });
});
