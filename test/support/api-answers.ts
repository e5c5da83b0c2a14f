import type { z } from 'zod';
import type { formRoutes } from '../../src/http/routes/forms';
import type { pluginRoutes } from '../../src/http/routes/plugins';
import type { submissionRoutes } from '../../src/http/routes/submissions';
import type { createFormBody } from '../../src/http/schemas/forms';

/*
 * The answers the test client reads, typed from the route declarations themselves: the
 * output of the JSON body schema a route declares for a status. A change of a schema shows
 * up here, and in the tests that read the field, at compile time.
 */

/** The body a route declares for `status`, as the client receives it. */
type BodyOf<R, S extends number> = R extends { responses: infer Answers }
  ? S extends keyof Answers
    ? Answers[S] extends { body: infer Schema extends z.ZodType }
      ? z.output<Schema>
      : never
    : never
  : never;

/** The routes among `R` that serve `Path` (a route may declare a union of paths). */
type RoutesAt<R, Path extends string> = R extends { path: infer P }
  ? Path extends P
    ? R
    : never
  : never;

/**
 * The JSON body answered with `status` on `path` (OpenAPI style, `/api/forms/{id}`) by one of
 * `routes`: every method of the path that declares that status, as a union.
 */
export type DeclaredBody<
  Routes extends readonly { path: string }[],
  Path extends Routes[number]['path'],
  Status extends number,
> = BodyOf<RoutesAt<Routes[number], Path>, Status>;

/** The Form resource (`GET /api/forms/{id}`). */
export type FormView = DeclaredBody<typeof formRoutes, '/api/forms/{id}', 200>['form'];

/** What a form may be created with (`POST /api/forms`), everything optional. */
export type FormSettings = Partial<z.input<typeof createFormBody>>;

/** The Plugin resource as `POST /api/forms/{form_id}/plugins` answers it. */
export type CreatedPlugin = DeclaredBody<
  typeof pluginRoutes,
  '/api/forms/{form_id}/plugins',
  201
>['plugin'];

/** A page of `GET /api/submissions`. */
export type SubmissionList = DeclaredBody<typeof submissionRoutes, '/api/submissions', 200>;
