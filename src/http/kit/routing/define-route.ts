import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Principal } from '../../../domain/accounts/principal';
import type { Scope } from '../../../domain/accounts/scopes';
import type { AuditDeclaration, AuditNote } from './audit-declaration';
import type { AppContext } from '../../../runtime/app-context';
import type { ErrorRef } from '../errors/error-codes';

/*
 * One declaration per API operation: what it takes, what it answers and who may call it.
 * registerRoutes turns it into the Express route, the OpenAPI document describes it, and the
 * answers are encoded through its response schemas, so the three cannot disagree.
 */

export type Method = 'get' | 'post' | 'patch' | 'delete' | 'options';

/** Who may call an operation: nobody in particular, any credential, a scope, or a session. */
export type Access = 'public' | 'any' | 'session' | Scope;

/** The operation groups of the document and /docs, in their order, with a one-line summary. */
export const TAGS = {
  Ingest: 'Posting submissions from HTML forms and JSON clients. No authentication.',
  'API root': 'Where an API client starts: its account and the operations it may use.',
  Forms: 'Create, read and update the forms of the account.',
  Submissions: 'Read stored submissions (non-spam and spam) and their uploaded files.',
  Plugins: 'Delivery targets of a form. Only webhooks can be created through the API.',
  Deliveries:
    'Every webhook delivery attempt, recorded by the delivery engine, and replay of a submission.',
  Domains:
    'Custom domains the form pages of the account are also served on (docs/custom-domains.md).',
  Stats: 'Counts for the account (dashboard sessions only) and for one form.',
  'Audit log': 'Every change made in the account: by whom, when, from where, to what.',
  Public: 'Unauthenticated endpoints: platform spam metrics and custom-domain checks.',
  Dashboard:
    'The account pages of the dashboard: sign-up, e-mail confirmation, sign-in and sign-out, password reset.',
  Documentation: 'This reference, as HTML and as an OpenAPI document.',
  Health: 'Liveness and readiness probes for orchestrators.',
} as const;
export type Tag = keyof typeof TAGS;

/** Documented response headers: name and what it carries. */
type HeaderDocs = Record<string, string>;

/**
 * A JSON body, encoded through `body` before it is sent; with `page` (a media type such as
 * `text/html`), the handler may answer the same status as that page instead (`content`),
 * for a client whose `Accept` prefers it.
 */
export type JsonResponse = {
  description: string;
  body: z.ZodType;
  headers?: HeaderDocs;
  page?: string;
};
/** A body of another media type (a page, a script, a file). */
export type ContentResponse = { description: string; content: string; headers?: HeaderDocs };
/** A redirect to the answer's `redirect` URL. */
export type RedirectResponse = { description: string; redirect: true; headers?: HeaderDocs };
/** No body. */
export type EmptyResponse = { description: string; headers?: HeaderDocs };
export type ResponseSpec = JsonResponse | ContentResponse | RedirectResponse | EmptyResponse;
export type Responses = { [status: number]: ResponseSpec };

type SetHeaders = Record<string, string>;
type AnswerTo<S, R> = R extends { body: infer B extends z.ZodType; page: string }
  ? | { status: S; body: z.input<B>; headers?: SetHeaders }
    | { status: S; content: string; headers?: SetHeaders }
  : R extends { body: infer B extends z.ZodType }
    ? { status: S; body: z.input<B>; headers?: SetHeaders }
    : R extends { content: string }
      ? { status: S; content: string | Buffer | Readable; headers?: SetHeaders }
      : R extends { redirect: true }
        ? { status: S; redirect: string; headers?: SetHeaders }
        : { status: S; headers?: SetHeaders };

/** What a handler returns: one of its declared statuses with the body that status takes. */
export type Answer<R extends Responses> = {
  [S in keyof R & number]: AnswerTo<S, R[S]>;
}[keyof R & number];

export type BodySpec = {
  schema: z.ZodType;
  mediaTypes: readonly string[];
  required: boolean;
  /**
   * The handler reads and checks the body itself (streamed parts, its own limits and order
   * of checks, or a page on failure); the schema is what it accepts. Otherwise the body must
   * be JSON, and it is parsed and validated before the handler runs.
   */
  readByHandler?: true;
};

type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;
export type PathParams<P extends string> = { [K in PathParamNames<P>]: string };

export type RouteInput<P extends string, A extends Access, Q, B> = {
  req: Request;
  res: Response;
  params: PathParams<P>;
  query: Q extends z.ZodType ? z.output<Q> : undefined;
  body: B extends { readByHandler: true }
    ? undefined
    : B extends { schema: infer S extends z.ZodType }
      ? z.output<S>
      : undefined;
  principal: A extends 'public' ? undefined : Principal;
  /** What the audit entry says beyond the declaration: a created id, a count (audit-declaration.ts). */
  audit: AuditNote;
};

/** What handlers may use: the application context and the readiness probe of this server. */
export type RouteContext = AppContext & { checkTemporal: () => Promise<void> };

/** The declaration of an operation, without its handler. */
export type RouteSpec<
  P extends string,
  A extends Access,
  R extends Responses,
  Q extends z.ZodObject | undefined,
  B extends BodySpec | undefined,
  M extends Method = Method,
> = {
  /** Kept literal in the type, so that tests can name an operation as `GET /api/forms`. */
  method: M;
  /** OpenAPI style: `/api/forms/{id}`. */
  path: P;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  access: A;
  /** Served on the ingest URL rather than the API base URL. */
  server?: 'api' | 'ingest';
  query?: Q;
  body?: B;
  responses: R;
  /** The error codes it answers itself; those of its access, query and body are implied. */
  errors: readonly ErrorRef[];
  /** Errors are an HTML page for browsers (`/f/...`, docs/api-conventions.md, Errors). */
  htmlErrors?: boolean;
  /** Runs first, before the access and input checks: headers every answer carries (CORS). */
  onRequest?: (req: Request, res: Response) => void;
} & AuditOf<M>;

/** A change (post, patch, delete) must say what the audit log records, or why nothing. */
export type AuditOf<M extends string> = M extends 'post' | 'patch' | 'delete'
  ? { audit: AuditDeclaration }
  : { audit?: AuditDeclaration };

export type RouteHandler<
  P extends string,
  A extends Access,
  R extends Responses,
  Q extends z.ZodObject | undefined,
  B extends BodySpec | undefined,
> = (input: RouteInput<P, A, Q, B>, ctx: RouteContext) => Answer<R> | Promise<Answer<R>>;

export type RouteDefinition<
  P extends string,
  A extends Access,
  R extends Responses,
  Q extends z.ZodObject | undefined,
  B extends BodySpec | undefined,
  M extends Method = Method,
> = RouteSpec<P, A, R, Q, B, M> & { handler: RouteHandler<P, A, R, Q, B> };

/**
 * Any documented operation, as the document builder sees it: a route's declaration, or one
 * made from a documented dashboard page (src/http/kit/routing/page-operations.ts).
 */
export type AnyOperation = RouteSpec<
  string,
  Access,
  Responses,
  z.ZodObject | undefined,
  BodySpec | undefined
>;

/** Any route definition, as registerRoutes sees it. */
export type AnyRoute = AnyOperation & { handler: (input: never, ctx: RouteContext) => unknown };

/**
 * Declares an operation, then its handler: `defineRoute({...}).handle(async (input, ctx) =>
 * ...)`. In two steps so that the declaration is settled first and types the handler's
 * input and answers fully.
 */
export function defineRoute<
  const P extends string,
  A extends Access,
  R extends Responses,
  Q extends z.ZodObject | undefined = undefined,
  B extends BodySpec | undefined = undefined,
  M extends Method = Method,
>(spec: RouteSpec<P, A, R, Q, B, M>) {
  return {
    handle: (handler: RouteHandler<P, A, R, Q, B>): RouteDefinition<P, A, R, Q, B, M> => ({
      ...spec,
      handler,
    }),
  };
}
