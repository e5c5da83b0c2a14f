import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AnyRoute, RouteContext } from './define-route';
import { handlersOf } from './register-routes';

/** `/json/{token}` or `/f/{token}` exactly (a trailing slash and a query allowed). */
const DIRECT_PATH = /^(\/(?:json|f)\/)([A-Za-z0-9_-]{1,128})\/?(?:\?|$)/;

/**
 * The public ingest posts are most of what a public Formward answers; they go from the app's
 * common middleware straight to their route's handlers, past the router's walk of the other
 * paths (docs/performance.md). The handlers are the ones registerRoutes gives the router, run
 * the way it runs them: a throw or a rejected promise goes to the error handler. A request
 * the pattern does not take exactly (another method, an encoded or oddly cased path) goes
 * through the router instead and gets the same answer.
 */
export function directDispatch(routes: readonly AnyRoute[], ctx: RouteContext): RequestHandler {
  const handlersByPrefix = new Map<string, RequestHandler[]>();
  for (const route of routes) {
    const prefix = route.path.replace('{endpoint_token}', '');
    if (route.method !== 'post' || !DIRECT_PATH.test(`${prefix}token`))
      throw new Error(`${route.operationId}: ${route.path} is not an ingest post`);
    handlersByPrefix.set(prefix, handlersOf(route, ctx));
  }
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const match = DIRECT_PATH.exec(req.url);
    const handlers = match && handlersByPrefix.get(match[1]!);
    if (!handlers) return next();
    req.params = { endpoint_token: match[2]! };
    runHandlers(handlers, req, res, next);
  };
}

/** Each handler in turn, as an Express route runs its stack; an error leaves for `done`. */
function runHandlers(
  handlers: RequestHandler[],
  req: Request,
  res: Response,
  done: NextFunction,
): void {
  let index = 0;
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) return done(error);
    const handler = handlers[index++];
    if (!handler) return done();
    try {
      const result: unknown = handler(req, res, step);
      if (result instanceof Promise)
        result.catch((rejected: unknown) => step(rejected ?? new Error('Rejected promise')));
    } catch (thrown) {
      step(thrown);
    }
  };
  step();
}
