import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/runtime/app-context';
import { definePage } from '../../src/http/dashboard/define-page';
import { PAGES } from '../../src/http/dashboard/pages';
import { registerPages } from '../../src/http/dashboard/register-pages';

const VIEWS = path.join(__dirname, '../../src/http/dashboard/views');

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
});
