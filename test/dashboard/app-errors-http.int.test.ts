import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { appErrorPage } from '../../src/http/kit/chrome/app-errors';
import { expectError, request } from '../support/api-client';
import { newTenant, useTestStack } from '../support/fixture';
import { openAppSession } from './dashboard-support';

// /app's own 404 and 500: pages in the dashboard's layout (the navigation when signed in),
// never the API's JSON, and never the error's message or stack.

const t = useTestStack();

const NAV = '<a href="/app/keys"';

describe('/app 404 pages', () => {
  it('an unknown path answers a 404 page with the navigation, GET or POST', async () => {
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const page = await request('GET', `${t.stack.url}/app/no/such/page`, { cookie: s.cookie });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain(NAV);
    expect(page.text).toContain('There is no such page in this account.');
    expect(page.text).not.toContain('no route for');
    const posted = await request('POST', `${t.stack.url}/app/no-such-action`, {
      cookie: s.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': s.csrf },
      body: '',
    });
    expect(posted.status).toBe(404);
    expect(posted.text).toContain(NAV);
  });

  it.each([
    '/app/forms/{other}',
    '/app/forms/{other}/plugins',
    '/app/forms/{other}/submissions',
    '/app/forms/not-an-id',
    '/app/forms/99999999999999999999',
    '/app/submissions/not-an-id',
    '/app/submissions/99999999999999999999',
  ])('%s (another account’s or malformed id) is a 404 page', async (path) => {
    const other = await newTenant(t.stack);
    const foreign = await other.api.createForm({ name: 'Not yours' });
    const s = await openAppSession(t.stack.url, t.email, t.password);
    const url = `${t.stack.url}${path.replace('{other}', String(foreign.id))}`;
    const page = await request('GET', url, { cookie: s.cookie });
    expect(page.status, page.text).toBe(404);
    expect(page.text).toContain(NAV);
  });

  it('the API keeps its JSON 404', async () => {
    expectError(await t.api.get('/api/no/such/thing'), 404, 'not_found');
  });

  it('signed out, an unknown /app path still leads to the sign-in page', async () => {
    const res = await request('GET', `${t.stack.url}/app/no/such/page`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fapp%2Fno%2Fsuch%2Fpage');
  });
});

describe('/app 500 page', () => {
  const logged: string[] = [];
  const logger = pino(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    }),
  );
  const app = express();
  app.get('/app/broken', (_req, res) => {
    res.locals.dashboard = { email: 'ada@example.com', accountName: 'Ada', csrfToken: 'tok' };
    throw new Error('secret detail: password=hunter2');
  });
  app.use(appErrorPage(logger));
  const server = app.listen(0, '127.0.0.1');
  afterAll(() => new Promise((done) => server.close(done)));

  it('a page that throws answers 500 in the layout, without the message or stack', async () => {
    const { port } = server.address() as AddressInfo;
    const res = await request('GET', `http://127.0.0.1:${port}/app/broken`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain(NAV);
    expect(res.text).toContain('ada@example.com');
    expect(res.text).toContain('Something went wrong on our side');
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    expect(logged.join()).toContain('hunter2');
  });
});
