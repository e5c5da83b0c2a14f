import type { Request, RequestHandler, Response } from 'express';
import { httpRequestDuration, submissionsTotal } from '../../../domain/metrics/registry';
import { routeOf } from '../routing/register-routes';

/** The ingest posts whose answers count as accepted or rejected submissions. */
const INGEST_OPERATIONS = new Set(['submitForm', 'submitJson']);

/**
 * Times every request of the public app and counts ingest outcomes (docs/metrics.md). The
 * `route` label is the declared path of what took the request (`/f/{endpoint_token}`), a
 * page's Express path in the same syntax, or `unmatched`: never the URL, so tokens and ids
 * cannot multiply the series.
 */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => record(req, res, started));
    next();
  };
}

function record(req: Request, res: Response, started: number): void {
  const operation = routeOf(res);
  const status = res.statusCode;
  httpRequestDuration.observe(
    { route: operation?.path ?? pagePath(req), method: req.method, status },
    (performance.now() - started) / 1000,
  );
  if (operation && INGEST_OPERATIONS.has(operation.operationId)) {
    if (status < 400) submissionsTotal.inc({ outcome: 'accepted' });
    else if (status < 500) submissionsTotal.inc({ outcome: 'rejected' });
  }
}

/** `/app/forms/:id` as `/app/forms/{id}`: the pattern Express matched, or `unmatched`. */
function pagePath(req: Request): string {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern !== 'string') return 'unmatched';
  return `${req.baseUrl}${pattern}`.replace(/:(\w+)/g, '{$1}');
}
