import type { z } from 'zod';
import type { errorSchema } from '../../src/http/error-codes';
import type { apiRootRoutes } from '../../src/http/routes/api-root';
import type { captchaIngestRoutes } from '../../src/http/routes/captcha-ingest';
import type { deliveryRoutes } from '../../src/http/routes/deliveries';
import type { docsRoutes } from '../../src/http/routes/docs';
import type { domainRoutes } from '../../src/http/routes/domains';
import type { formRoutes } from '../../src/http/routes/forms';
import type { healthRoutes } from '../../src/http/routes/health';
import type { ingestRoutes } from '../../src/http/routes/ingest';
import type { pluginRoutes } from '../../src/http/routes/plugins';
import type { publicRoutes } from '../../src/http/routes/public';
import type { recoveryRoutes } from '../../src/http/routes/recoveries';
import type { statsRoutes } from '../../src/http/routes/stats';
import type { auditLogRoutes } from '../../src/http/routes/audit-log';
import type { submissionRoutes } from '../../src/http/routes/submissions';
import type { createFormBody } from '../../src/http/schemas/forms';

/*
 * The answers the test client reads, typed from the route declarations themselves: the
 * output of the JSON body schema a route declares for a status. A change of a schema shows
 * up here, and in the tests that read the field, at compile time. ROUTES in
 * src/http/routes/index.ts is typed as any route, so the groups are named one by one (the
 * signed-out dashboard routes answer pages, not JSON, and are left out).
 */

/** Every declared operation whose answers the tests read. */
type ApiRoute =
  | (typeof healthRoutes)[number]
  | (typeof ingestRoutes)[number]
  | (typeof captchaIngestRoutes)[number]
  | ReturnType<typeof docsRoutes>[number]
  | (typeof publicRoutes)[number]
  | (typeof apiRootRoutes)[number]
  | (typeof formRoutes)[number]
  | (typeof pluginRoutes)[number]
  | (typeof domainRoutes)[number]
  | (typeof submissionRoutes)[number]
  | (typeof deliveryRoutes)[number]
  | (typeof recoveryRoutes)[number]
  | (typeof statsRoutes)[number]
  | (typeof auditLogRoutes)[number];

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
