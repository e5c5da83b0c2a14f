import { describe, expect, expectTypeOf, it } from 'vitest';
import { manageRoutes } from '../../src/http/manage/manage-api';
import { manageChangeRoutes } from '../../src/http/manage/manage-changes-api';
import { submissionVersionRoutes } from '../../src/http/submissions/submission-versions-api';
import { ROUTES } from '../../src/http/routes';
import { apiRootRoutes } from '../../src/http/docs/api-root-api';
import { deliveryRoutes } from '../../src/http/submissions/deliveries-api';
import { docsRoutes } from '../../src/http/docs/docs-api';
import { formPageRoutes } from '../../src/http/ingest/form-page-api';
import { formRoutes } from '../../src/http/forms/forms-api';
import { formSchemaRoutes } from '../../src/http/forms/form-schema-api';
import { healthRoutes } from '../../src/http/health';
import { ingestRoutes } from '../../src/http/ingest/ingest-api';
import { captchaIngestRoutes } from '../../src/http/ingest/captcha-ingest-api';
import { jwksRoutes } from '../../src/http/ingest/jwks-api';
import { pluginRoutes } from '../../src/http/plugins/plugins-api';
import { domainRoutes } from '../../src/http/domains/domains-api';
import { publicRoutes } from '../../src/http/domains/public-api';
import { recoveryRoutes } from '../../src/http/plugins/recoveries-api';
import { statsRoutes } from '../../src/http/stats/stats-api';
import { auditLogRoutes } from '../../src/http/account/audit-log-api';
import { submissionRoutes } from '../../src/http/submissions/submissions-api';
import type { Operation, OperationOf } from '../support/api-answers';
import {
  expectAnswer,
  expectError,
  type AnswerBody,
  type ApiResponse,
} from '../support/api-client';

/*
 * expectAnswer types a body from the route declarations and checks that the response is the
 * operation it names. The functions below are never called: `tsc -p tsconfig.test.json`
 * checks them, and each `@ts-expect-error` fails the type check if the mistake under it
 * compiles.
 */

function answer(method: string, url: string, status: number, body: unknown): ApiResponse {
  const text = JSON.stringify(body);
  return {
    method,
    url,
    status,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }),
    body,
    text,
    bytes: Buffer.from(text),
  };
}

const formAnswer = answer('GET', 'http://localhost:1/api/forms/f_1', 200, { form: { id: 'f_1' } });

export function typedFields(res: ApiResponse): void {
  const { form } = expectAnswer(res, 'GET /api/forms/{id}', 200);
  const id: string = form.id;
  const links: { rel: string; href: string }[] = form.links;
  // @ts-expect-error: the Form resource has no field `endpoint`
  void form.endpoint;
  // @ts-expect-error: `name` is a string
  const name: number = form.name;
  void [id, links, name];

  const page = expectAnswer(res, 'GET /api/submissions/spam', 200);
  void page.submissions[0]?.id;
  // @ts-expect-error: a submissions page has no `forms`
  void page.forms;

  const { plugin } = expectAnswer(res, 'POST /api/forms/{form_id}/plugins', 201);
  // @ts-expect-error: plugin_type is one of the declared types, not any string
  const kind: 'fax' = plugin.plugin_type;
  void kind;

  const ready = expectAnswer(res, 'GET /readyz', 503);
  void ready.checks;
}

export function declaredOperations(res: ApiResponse): void {
  // @ts-expect-error: GET /api/forms/{id} declares no 201
  expectAnswer(res, 'GET /api/forms/{id}', 201);
  // @ts-expect-error: no such path
  expectAnswer(res, 'GET /api/form/{id}', 200);
  // @ts-expect-error: the method is part of the operation
  expectAnswer(res, 'DELETE /api/forms/{id}', 200);
  // @ts-expect-error: GET /f/{endpoint_token}/thanks answers a page, not JSON
  expectAnswer(res, 'GET /f/{endpoint_token}/thanks', 200);
  // @ts-expect-error: not an error code of src/http/kit/errors/error-codes.ts
  expectError(res, 404, 'not_fund');
}

// @ts-expect-error: the list answers `forms`, not `form`
export const wrongEnvelope = (body: AnswerBody<'GET /api/forms', 200>) => body.form;

/** The route groups test/support/api-answers.ts types, as values. */
const typedGroups = [
  healthRoutes,
  formPageRoutes,
  ingestRoutes,
  captchaIngestRoutes,
  jwksRoutes,
  docsRoutes(() => []),
  publicRoutes,
  apiRootRoutes,
  formRoutes,
  formSchemaRoutes,
  pluginRoutes,
  domainRoutes,
  submissionRoutes,
  deliveryRoutes,
  recoveryRoutes,
  statsRoutes,
  auditLogRoutes,
  manageRoutes,
  manageChangeRoutes,
  submissionVersionRoutes,
] as const;

describe('the operations expectAnswer knows', () => {
  it('are those of the groups above', () => {
    expectTypeOf<OperationOf<(typeof typedGroups)[number][number]>>().toEqualTypeOf<Operation>();
  });

  it('cover every route of ROUTES but the signed-out dashboard pages', () => {
    const name = (route: { method: string; path: string }) =>
      `${route.method.toUpperCase()} ${route.path}`;
    const typed = new Set(typedGroups.flat().map(name));
    const missing = ROUTES.filter((r) => r.tag !== 'Dashboard' && !typed.has(name(r)));
    expect(missing.map(name), 'add their group to test/support/api-answers.ts').toEqual([]);
  });
});

describe('expectAnswer', () => {
  it('returns the body of the operation it names', () => {
    expect(expectAnswer(formAnswer, 'GET /api/forms/{id}', 200).form.id).toBe('f_1');
  });

  it('fails on another method, another path or another status', () => {
    expect(() => expectAnswer(formAnswer, 'PATCH /api/forms/{id}', 200)).toThrow(
      'is PATCH /api/forms/{id}',
    );
    expect(() => expectAnswer(formAnswer, 'GET /api/submissions/{id}', 200)).toThrow();
    expect(() => expectAnswer(formAnswer, 'GET /api/forms', 200)).toThrow();
    expect(() => expectAnswer(formAnswer, 'POST /api/forms', 201)).toThrow();
    const notFound = answer('GET', formAnswer.url, 404, { ok: false });
    expect(() => expectAnswer(notFound, 'GET /api/forms/{id}', 200)).toThrow('{"ok":false}');
  });

  it('reads one segment for each path parameter, and ignores the query', () => {
    const plugin = answer('GET', 'http://h/api/forms/f_1/plugins/p_2?x=1', 200, {});
    expect(expectAnswer(plugin, 'GET /api/forms/{form_id}/plugins/{id}', 200)).toEqual({});
    const deeper = answer('GET', 'http://h/api/forms/f_1/plugins', 200, {});
    expect(() => expectAnswer(deeper, 'GET /api/forms/{id}', 200)).toThrow();
  });
});
