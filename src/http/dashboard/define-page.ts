import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../runtime/app-context';
import type { DashboardSession } from './session-guard';
import type { TemplateName, Templates } from './templates';

/*
 * One declaration per dashboard page, the way defineRoute declares an API operation: its
 * method and path, who may open it, the template and title it renders, and its handler.
 * registerPages turns the list in pages/index.ts into Express routes, so that file lists
 * every page.
 */

export type PageMethod = 'get' | 'post';

/**
 * `session`: a signed-in person; the path is under `/app`, where requireSession checks the
 * session and, on every state change, its CSRF token. `guest`: anyone; a state change must
 * carry the signed-out forms' CSRF token (guest-csrf.ts).
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

/** Sends the page's template with its data (only the data templates.ts gives that template). */
export type Render<T> = T extends TemplateName
  ? (data: Templates[T], options?: { status?: number }) => Promise<void>
  : undefined;

export type PageInput<P extends string, A extends PageAccess, T> = {
  req: Request;
  res: Response;
  /** Passes the request on, as if this page did not exist (the dashboard's 404). */
  next: NextFunction;
  params: PageParams<P>;
  session: A extends 'session' ? DashboardSession : undefined;
  render: Render<T>;
};

export type PageSpec<P extends string, A extends PageAccess, T extends TemplateName | undefined> = {
  method: PageMethod;
  /** Express style: `/app/forms/:id`. */
  path: P;
  access: A;
  /** The template `render` sends; none for a post that only redirects (or answers 404). */
  template?: T;
  /** The page's `<title>` and heading: fixed, or made from the data it renders. */
  title?: string | ((data: DataOf<T>) => string);
  /** The page exists only when this holds for the running service (the dev mailbox). */
  enabled?: (ctx: AppContext) => boolean;
};

export type PageHandler<P extends string, A extends PageAccess, T> = (
  input: PageInput<P, A, T>,
  ctx: AppContext,
) => unknown;

export type PageDefinition<
  P extends string,
  A extends PageAccess,
  T extends TemplateName | undefined,
> = PageSpec<P, A, T> & { handler: PageHandler<P, A, T> };

/** Any page, as registerPages sees it. */
export type AnyPage = {
  method: PageMethod;
  path: string;
  access: PageAccess;
  template?: TemplateName;
  title?: string | ((data: never) => string);
  enabled?: (ctx: AppContext) => boolean;
  handler: (input: never, ctx: AppContext) => unknown;
};

/**
 * Declares a page, then its handler: `definePage({...}).handle(async ({ render }, ctx) =>
 * ...)`. In two steps so that the declaration types the handler's params, session and
 * `render` fully.
 */
export function definePage<
  const P extends string,
  A extends PageAccess,
  T extends TemplateName | undefined = undefined,
>(spec: PageSpec<P, A, T>) {
  return {
    handle: (handler: PageHandler<P, A, T>): PageDefinition<P, A, T> => ({ ...spec, handler }),
  };
}
