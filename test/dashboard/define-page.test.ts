import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../src/runtime/app-context';
import { definePage } from '../../src/http/kit/routing/define-page';
import { OPERATIONS, PAGES } from '../../src/http/routes';
import { registerPages } from '../../src/http/kit/routing/register-pages';

const VIEWS = path.join(__dirname, '../../src/http/kit/chrome/templates');

describe('the page list', () => {
  it('declares each method and path once, every template exists, session pages are under /app', () => {
    const keys = PAGES.map((page) => `${page.method} ${page.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const page of PAGES) {
      if (page.template) expect(fs.existsSync(path.join(VIEWS, `${page.template}.eta`))).toBe(true);
      if (page.access === 'session') expect(page.path).toMatch(/^\/app(\/|$)/);
    }
  });

  it('refuses at registration a session page outside /app', () => {
    const outside = definePage({ method: 'get', path: '/elsewhere', access: 'session' }).handle(
      () => undefined,
    );
    expect(() => registerPages(express.Router(), [outside], {} as AppContext)).toThrow(
      'a session page must be under /app',
    );
  });

  it('types params from the path and render from the template', () => {
    definePage({
      method: 'get',
      path: '/app/forms/:formId/example',
      access: 'session',
      template: 'erase-sender',
      title: 'Example',
    }).handle(async ({ params, session, render }) => {
      const formId: string = params.formId;
      // @ts-expect-error: the path has no :id
      void params.id;
      void session.accountId;
      await render({ email: formId });
      // @ts-expect-error: erase-sender takes an e-mail, not a form
      await render({ form: { id: formId } });
    });
    expect(true).toBe(true);
  });

  it('refuses at registration a form on a page that is not a guest post', () => {
    const form = z.object({ _csrf: z.string() });
    const onGet = definePage({ method: 'get', path: '/x', access: 'guest', form }).handle(
      () => undefined,
    );
    const tokenFree = definePage({
      method: 'post',
      path: '/x',
      access: 'guest',
      audit: { exempt: 'a test page' },
      guestCsrf: false,
      form,
    }).handle(() => undefined);
    for (const page of [onGet, tokenFree])
      expect(() => registerPages(express.Router(), [page], {} as AppContext)).toThrow(
        'form and refused are for guest posts',
      );
  });

  it('types query and form from their schemas, and the refusal from the template', () => {
    definePage({
      method: 'post',
      path: '/example',
      access: 'guest',
      audit: { exempt: 'a test page' },
      template: 'forgot',
      title: 'Example',
      query: z.object({ token: z.string().default('') }),
      form: z.object({ email: z.string(), _csrf: z.string() }),
      refused: ({ form, render }) => render({ error: form?.email }, { status: 403 }),
    }).handle(async ({ query, form, render }) => {
      const token: string = query.token;
      const email: string = form.email;
      // @ts-expect-error: the form has no password
      void form.password;
      await render({ error: `${token} ${email}` });
      // @ts-expect-error: forgot takes an error, not lines
      await render({ lines: [] });
    });
    expect(true).toBe(true);
  });

  it('puts every documented page, and only those, in the API reference', () => {
    const documented = PAGES.filter((page) => page.document);
    expect(documented.every((page) => page.access === 'guest')).toBe(true);
    const ids = new Set(OPERATIONS.map((operation) => operation.operationId));
    for (const page of documented) expect(ids).toContain(page.document!.operationId);
    const dashboard = OPERATIONS.filter((operation) => operation.tag === 'Dashboard');
    expect(dashboard.map((o) => `${o.method} ${o.path}`)).toEqual(
      documented.map((page) => `${page.method} ${page.path}`),
    );
  });
});
