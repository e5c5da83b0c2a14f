import { pipeline, Readable } from 'node:stream';
import type { RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { can } from '../../../domain/accounts/principal';
import { actorOfPrincipal, recordAuditEvent } from '../../../domain/audit/audit-log';
import { HttpError, rateLimited } from '../errors/http-error';
import { jsonBody } from '../middleware/json-body';
import { parseOrThrow } from './validate';
import { auditEntryOf, type AuditNote } from './audit-declaration';
import type { AnyOperation, AnyRoute, ResponseSpec, RouteContext } from './define-route';

/** Where the operation that took a request is kept, for the answer check of the error handler. */
const ROUTE_KEY = 'routeDefinition';

export function routeOf(res: Response): AnyOperation | undefined {
  return res.locals[ROUTE_KEY] as AnyOperation | undefined;
}

/** Says which operation took the request (a route, or a documented dashboard page). */
export function markOperation(res: Response, operation: AnyOperation): void {
  res.locals[ROUTE_KEY] = operation;
}

/** An answer its route does not declare: a bug, reported loudly where answers are checked. */
export class UndeclaredAnswerError extends Error {}

/** `/api/forms/{id}` in Express's syntax. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Adds the routes to an Express router, one Express route per path: each method runs its
 * access check, input validation and handler, and every other method answers 405 with the
 * `Allow` of the definitions on that path. Non-public routes expect `req.principal` to be
 * set by the authentication middleware mounted before them.
 */
export function registerRoutes(
  router: Pick<Router, 'route'>,
  routes: readonly AnyRoute[],
  ctx: RouteContext,
) {
  const byPath = new Map<string, AnyRoute[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, definitions] of byPath) {
    const expressRoute = router.route(expressPath(path));
    for (const definition of definitions)
      expressRoute[definition.method](...handlersOf(definition, ctx));
    expressRoute.all(methodNotAllowed(definitions.map((d) => d.method.toUpperCase())));
  }
}

/** The last handler of a path: the path exists, the method does not. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req) => {
    throw new HttpError(
      'method_not_allowed',
      `${req.method} is not allowed here; use ${allowed.join(', ')}`,
      undefined,
      { Allow: allowed.join(', ') },
    );
  };
}

export function handlersOf(route: AnyRoute, ctx: RouteContext): RequestHandler[] {
  const handlers: RequestHandler[] = [
    (req, res, next) => {
      markOperation(res, route);
      route.onRequest?.(req, res);
      next();
    },
  ];
  if (route.access !== 'public') handlers.push(checkAccess(route));
  if (route.access !== 'public' && isChange(route)) handlers.push(countWrite(ctx));
  if (route.body && !route.body.readByHandler) {
    if (route.body.mediaTypes.join() !== 'application/json')
      throw new Error(`${route.operationId}: only JSON bodies are read before the handler`);
    handlers.push(jsonBody);
  }
  handlers.push(async (req, res) => {
    const audit: AuditNote = {};
    const input = {
      req,
      res,
      params: req.params,
      query: route.query ? parseOrThrow(route.query, req.query, 'query') : undefined,
      body:
        route.body && !route.body.readByHandler
          ? parseOrThrow(route.body.schema, req.body)
          : undefined,
      principal: req.principal,
      audit,
    };
    const handler = route.handler as (input: unknown, ctx: RouteContext) => unknown;
    const answer = (await handler(input, ctx)) as AnswerValue;
    // The entry is committed before the client hears the change happened (docs/audit-log.md).
    const principal = req.principal;
    const who = principal && { accountId: principal.accountId, actor: actorOfPrincipal(principal) };
    const entry = answer.status < 400 ? auditEntryOf(route.audit, audit, req, who) : null;
    if (entry) await recordAuditEvent(req.em, entry);
    sendAnswer(res, route, answer);
  });
  return handlers;
}

/** A post, patch or delete: what API_WRITE_RATE counts (reads are free). */
export const isChange = (route: { method: string }) =>
  route.method !== 'get' && route.method !== 'options';

/**
 * Counts the change against its credential's API_WRITE_RATE, after authentication and the
 * access check and before the body is read: past it, 429 `rate_limited` with `Retry-After`.
 */
function countWrite(ctx: RouteContext): RequestHandler {
  return async (req, _res, next) => {
    const wait = await ctx.apiWriteBudget.consumeFor(req.principal!);
    if (wait > 0) {
      throw rateLimited(
        `This ${req.principal!.kind === 'api_key' ? 'API key' : 'session'} made API_WRITE_RATE's ${ctx.apiWriteBudget.perMinute} changes this minute; try again in ${wait} s.`,
        wait,
      );
    }
    next();
  };
}

function checkAccess(route: AnyRoute): RequestHandler {
  return (req, _res, next) => {
    const principal = req.principal;
    if (!principal) throw new Error(`${route.operationId} is not public but nothing authenticated`);
    if (route.access === 'session' && principal.kind !== 'session') {
      throw new HttpError(
        'unauthorized',
        'this endpoint needs a signed-in dashboard session; API keys are not accepted',
      );
    }
    const scope = route.access;
    if (scope !== 'any' && scope !== 'session' && scope !== 'public' && !can(principal, scope)) {
      const holder = principal.kind === 'session' ? `member's role (${principal.role})` : 'key';
      throw new HttpError('forbidden', `this ${holder} lacks the ${scope} scope`);
    }
    next();
  };
}

type AnswerValue = {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  content?: string | Buffer | Readable;
  redirect?: string;
};

/** Sends an answer as its route declares it; JSON bodies go through the status's schema. */
function sendAnswer(res: Response, route: AnyRoute, answer: AnswerValue): void {
  const spec: ResponseSpec | undefined = route.responses[answer.status];
  if (!spec)
    throw new UndeclaredAnswerError(`${route.operationId} answered ${answer.status}, not declared`);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if ('body' in spec && spec.page && answer.content !== undefined) {
    // The status's answer as a page (JsonResponse.page), for a client that prefers it.
    if (!res.get('Content-Type')) res.type(spec.page);
    res.status(answer.status).send(answer.content);
  } else if ('body' in spec) {
    const encoded = spec.body.safeParse(answer.body);
    if (!encoded.success) {
      throw new UndeclaredAnswerError(
        `${route.operationId} ${answer.status}: the body does not match its schema: ${z.prettifyError(encoded.error)}`,
      );
    }
    if (route.method === 'get') res.status(answer.status).json(encoded.data);
    else {
      // Written directly: Express's res.json would hash the body for an ETag, which means
      // nothing on the answer to a change (and costs ingest a SHA-1 per submission).
      res.statusCode = answer.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(encoded.data));
    }
  } else if ('content' in spec) {
    if (!res.get('Content-Type')) res.type(spec.content);
    // A stream (a file download) is piped; pipeline destroys both ends when either fails
    // (the client sees a cut-short body), so there is nothing more to do on error.
    if (answer.content instanceof Readable)
      pipeline(answer.content, res.status(answer.status), () => undefined);
    else res.status(answer.status).send(answer.content);
  } else if ('redirect' in spec) {
    res.redirect(answer.status, answer.redirect!);
  } else {
    res.status(answer.status).end();
  }
}
