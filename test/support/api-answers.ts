import type { z } from 'zod';
import type { errorSchema } from '../../src/http/kit/errors/error-codes';
import type { apiRootRoutes } from '../../src/http/docs/api-root-api';
import type { captchaIngestRoutes } from '../../src/http/ingest/captcha-ingest-api';
import type { deliveryRoutes } from '../../src/http/submissions/deliveries-api';
import type { docsRoutes } from '../../src/http/docs/docs-api';
import type { formPageRoutes } from '../../src/http/ingest/form-page-api';
import type { domainRoutes } from '../../src/http/domains/domains-api';
import type { formRoutes } from '../../src/http/forms/forms-api';
import type { formSchemaRoutes } from '../../src/http/forms/form-schema-api';
import type { healthRoutes } from '../../src/http/health';
import type { ingestRoutes } from '../../src/http/ingest/ingest-api';
import type { jwksRoutes } from '../../src/http/ingest/jwks-api';
import type { pluginRoutes } from '../../src/http/plugins/plugins-api';
import type { publicRoutes } from '../../src/http/domains/public-api';
import type { recoveryRoutes } from '../../src/http/plugins/recoveries-api';
import type { statsRoutes } from '../../src/http/stats/stats-api';
import type { auditLogRoutes } from '../../src/http/account/audit-log-api';
import type { submissionRoutes } from '../../src/http/submissions/submissions-api';
import type { createFormBody } from '../../src/http/forms/forms-schemas';
import type { manageRoutes } from '../../src/http/manage/manage-api';
import type { manageChangeRoutes } from '../../src/http/manage/manage-changes-api';
import type { submissionVersionRoutes } from '../../src/http/submissions/submission-versions-api';

/*
 * The answers the test client reads, typed from the route declarations themselves: the
 * output of the JSON body schema a route declares for a status. A change of a schema shows
 * up here, and in the tests that read the field, at compile time. ROUTES in
 * src/http/routes.ts is typed as any route, so the groups are named one by one (the
 * signed-out dashboard routes answer pages, not JSON, and are left out).
 */

/** Every declared operation whose answers the tests read. */
type ApiRoute =
  | (typeof healthRoutes)[number]
  | (typeof formPageRoutes)[number]
  | (typeof ingestRoutes)[number]
  | (typeof captchaIngestRoutes)[number]
  | (typeof jwksRoutes)[number]
  | ReturnType<typeof docsRoutes>[number]
  | (typeof publicRoutes)[number]
  | (typeof apiRootRoutes)[number]
  | (typeof formRoutes)[number]
  | (typeof formSchemaRoutes)[number]
  | (typeof pluginRoutes)[number]
  | (typeof domainRoutes)[number]
  | (typeof submissionRoutes)[number]
  | (typeof deliveryRoutes)[number]
  | (typeof recoveryRoutes)[number]
  | (typeof statsRoutes)[number]
  | (typeof auditLogRoutes)[number]
  | (typeof manageRoutes)[number]
  | (typeof manageChangeRoutes)[number]
  | (typeof submissionVersionRoutes)[number];

/** `GET /api/forms/{id}`: the method in capitals, a space, the declared path. */
export type OperationOf<R> = R extends {
  method: infer M extends string;
  path: infer P extends string;
}
  ? `${Uppercase<M>} ${P}`
  : never;

/** An operation as tests name it, e.g. `'PATCH /api/forms/{form_id}/plugins/{id}'`. */
export type Operation = OperationOf<ApiRoute>;

/** The route declaring `Op`. */
type RouteOf<Op extends string, R = ApiRoute> = R extends unknown
  ? Op extends OperationOf<R>
    ? R
    : never
  : never;

/** The statuses `Op` declares with a JSON body. */
export type JsonStatus<Op extends Operation> =
  RouteOf<Op> extends { responses: infer Answers }
    ? {
        [S in keyof Answers & number]: Answers[S] extends { body: z.ZodType } ? S : never;
      }[keyof Answers & number]
    : never;

/** The JSON body `Op` answers with `status`, as the client receives it. */
export type AnswerBody<Op extends Operation, Status extends JsonStatus<Op>> =
  RouteOf<Op> extends { responses: infer Answers }
    ? Status extends keyof Answers
      ? Answers[Status] extends { body: infer Schema extends z.ZodType }
        ? z.output<Schema>
        : never
      : never
    : never;

/** The body of every 4xx and 5xx JSON answer. */
export type ErrorAnswer = z.output<typeof errorSchema>;

/** The Form resource (`GET /api/forms/{id}`). */
export type FormView = AnswerBody<'GET /api/forms/{id}', 200>['form'];

/** What a form may be created with (`POST /api/forms`), everything optional. */
export type FormSettings = Partial<z.input<typeof createFormBody>>;

/** The Plugin resource as `POST /api/forms/{form_id}/plugins` answers it. */
export type CreatedPlugin = AnswerBody<'POST /api/forms/{form_id}/plugins', 201>['plugin'];
