import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { Need } from '../../../domain/accounts/member-roles';
import type { AppContext } from '../../../runtime/app-context';
import type { ErrorRef } from '../errors/error-codes';
import type { AuditDeclaration } from './audit-declaration';
import type { AuditOf, Responses } from './define-route';
import type { PageAudit } from './page-audit';
import type { DashboardSession } from '../session/session-guard';
import type { TemplateName, Templates } from '../chrome/template-data';

/*
 * One declaration per dashboard page, the way defineRoute declares an API operation: its
 * method and path, who may open it, what it reads, the template and title it renders, and
 * its handler. registerPages turns the list in src/http/routes.ts into Express routes, so that
 * file lists every page; the signed-out pages that are in the API reference say so in their
 * `document` (page-operations.ts).
 */

export type PageMethod = 'get' | 'post';

/**
 * `session`: a signed-in person; the path is under `/app`, where requireSession checks the
 * session and, on every state change, its CSRF token. `guest`: anyone; a state change must
 * carry the signed-out forms' CSRF token (guest-csrf.ts), unless the page says `guestCsrf:
 * false`.
 */
export type PageAccess = 'guest' | 'session';

/** `:name` segments of an Express path. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;
export type PageParams<P extends string> = { [K in ParamNames<P>]: string };

type DataOf<T> = T extends TemplateName ? Templates[T] : never;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** How `render` sends a page: its status (200), and a title other than the declared one. */
export type RenderOptions = { status?: number; title?: string };

/** Sends the page's template with its data (only the data template-data.ts gives that template). */
export type Render<T> = T extends TemplateName
  ? (data: Templates[T], options?: RenderOptions) => Promise<void>
  : undefined;

export type PageInput<P extends string, A extends PageAccess, T, Q = undefined, F = undefined> = {
  req: Request;
  res: Response;
  /** Passes the request on, as if this page did not exist (the dashboard's 404). */
  next: NextFunction;
  params: PageParams<P>;
  /** The query, checked with the page's `query` schema. */
  query: Parsed<Q>;
  /** The posted fields, checked with the page's `form` schema (and its CSRF token). */
  form: Parsed<F>;
  session: A extends 'session' ? DashboardSession : undefined;
  render: Render<T>;
  /** What the audit entry says beyond the declaration (page-audit.ts). */
  audit: PageAudit;
};

/** What a refused post's answer gets: the fields when they read (only the token was wrong). */
export type RefusalInput<T, Q, F> = {
  req: Request;
  res: Response;
  query: Parsed<Q>;
  form: Parsed<F> | undefined;
  render: Render<T>;
};

/**
 * The page in the API reference (tag Dashboard, no authentication): the operation's id,
 * summary, answers and errors as defineRoute declares them. Its query and form body are the
 * page's `query` and `form`; `body` documents what a page without a `form` reads itself.
 */
export type PageDocument = {
  operationId: string;
  summary: string;
  description?: string;
  body?: { schema: z.ZodType; required: boolean };
  responses: Responses;
  errors: readonly ErrorRef[];
};

export type PageSpec<
  P extends string,
  A extends PageAccess,
  T extends TemplateName | undefined,
  Q extends z.ZodObject | undefined = undefined,
  F extends z.ZodObject | undefined = undefined,
  M extends PageMethod = PageMethod,
> = {
  method: M;
  /** Express style: `/app/forms/:id`. */
  path: P;
  access: A;
  /**
   * A session page's requirement of the member's role (member-roles.ts), checked on every
   * request before the handler: a scope, `owner`, or `member` for anyone in the account.
   * Required for session pages: registerPages refuses to start without it.
   */
  need?: Need;
  /** The template `render` sends; none for a post that only redirects (or answers 404). */
  template?: T;
  /** The page's `<title>` and heading: fixed, or made from the data it renders. */
  title?: string | ((data: DataOf<T>) => string);
  /** The page exists only when this holds for the running service (the dev mailbox). */
  enabled?: (ctx: AppContext) => boolean;
  /** Loads the ALTCHA widget (the sign-up form). */
  altcha?: true;
  /** The query, checked before the handler as the API checks one (422 `validation_failed`). */
  query?: Q;
  /**
   * A guest post's fields (urlencoded, at most 16kb), read and checked with the signed-out
   * CSRF token before the handler; fields that do not fit are refused like a wrong token.
   */
  form?: F;
  /**
   * `false`: a guest post that carries no signed-out CSRF token and proves what it needs
   * itself (sign-out checks the session's token; a recipient link carries its own, and mail
   * providers post the one-click unsubscribe cross-site).
   */
  guestCsrf?: false;
  /**
   * The answer to a refused guest post (no or a wrong token, fields that do not fit);
   * without it, registerPages' “Request refused” page (403).
   */
  refused?: (input: RefusalInput<T, Q, F>, ctx: AppContext) => unknown;
  /** In the API reference (OpenAPI and /docs): a signed-out page only. */
  document?: PageDocument;
} & AuditOf<M>;

export type PageHandler<P extends string, A extends PageAccess, T, Q = undefined, F = undefined> = (
  input: PageInput<P, A, T, Q, F>,
  ctx: AppContext,
) => unknown;

export type PageDefinition<
  P extends string,
  A extends PageAccess,
  T extends TemplateName | undefined,
  Q extends z.ZodObject | undefined = undefined,
  F extends z.ZodObject | undefined = undefined,
> = PageSpec<P, A, T, Q, F> & { handler: PageHandler<P, A, T, Q, F> };

/** Any page, as registerPages sees it. */
export type AnyPage = {
  method: PageMethod;
  path: string;
  access: PageAccess;
  need?: Need;
  template?: TemplateName;
  title?: string | ((data: never) => string);
  enabled?: (ctx: AppContext) => boolean;
  altcha?: true;
  query?: z.ZodObject;
  form?: z.ZodObject;
  guestCsrf?: false;
  refused?: (input: never, ctx: AppContext) => unknown;
  document?: PageDocument;
  audit?: AuditDeclaration;
  handler: (input: never, ctx: AppContext) => unknown;
};

/**
 * Declares a page, then its handler: `definePage({...}).handle(async ({ render }, ctx) =>
 * ...)`. In two steps so that the declaration types the handler's params, query, form,
 * session and `render` fully.
 */
export function definePage<
  const P extends string,
  A extends PageAccess,
  T extends TemplateName | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  F extends z.ZodObject | undefined = undefined,
  M extends PageMethod = PageMethod,
>(spec: PageSpec<P, A, T, Q, F, M>) {
  return {
    handle: (handler: PageHandler<P, A, T, Q, F>): PageDefinition<P, A, T, Q, F> => ({
      ...spec,
      handler,
    }),
  };
}
