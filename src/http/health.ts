import express, { Router } from 'express';
import { z } from 'zod';
import {
  countSubmissionsAwaitingWorkflow,
  pingDatabase,
} from '../domain/health/database-readiness';
import { admissionTotals } from '../domain/metrics/admission-gauges';
import type { AppContext } from '../runtime/app-context';
import { linksSchema } from './kit/answers/links';
import { defineRoute } from './kit/routing/define-route';
import { registerRoutes } from './kit/routing/register-routes';

const healthSchema = z.object({ ok: z.boolean() }).meta({ id: 'Health' });

const readinessSchema = z
  .object({
    ok: z.boolean(),
    checks: z
      .record(z.string(), z.string())
      .describe(
        '`postgres`, `temporal` and, with an object store, `file_storage`: `ok` or `unavailable` (the cause is logged)',
      ),
    workflow_starts: z
      .object({
        waiting: z
          .number()
          .int()
          .nullable()
          .describe(
            'Submissions stored whose workflow is not started yet, in all processes (null when PostgreSQL is down)',
          ),
        queued: z
          .number()
          .int()
          .describe('Of those, claimed by this process and being started (a worker; 0 elsewhere)'),
        in_flight: z
          .number()
          .int()
          .describe('Workflows this process started that no worker has taken up yet'),
        window: z
          .number()
          .int()
          .describe(
            'The most this process starts ahead of the workers (`ADMISSION_WINDOW` in a worker, 0 elsewhere)',
          ),
      })
      .describe('Admission control of workflow starts (docs/running.md)'),
    links: linksSchema(),
  })
  .meta({ id: 'Readiness' });

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: PostgreSQL and Temporal reachable). */
export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    operationId: 'liveness',
    tag: 'Health',
    summary: 'Liveness',
    description: 'The process answers.',
    access: 'public',
    responses: { 200: { description: 'alive', body: healthSchema } },
    errors: [],
  }).handle(() => ({ status: 200, body: { ok: true } })),
  defineRoute({
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tag: 'Health',
    summary: 'Readiness',
    description: 'PostgreSQL, Temporal and the object store for files (if any) are reachable.',
    access: 'public',
    responses: {
      200: { description: 'ready', body: readinessSchema },
      503: { description: 'not ready; `checks` says why', body: readinessSchema },
    },
    errors: [],
  }).handle(async ({ req }, ctx) => {
    // Raw failures name hosts, ports and users: they go to the log, not to any caller.
    const check = (name: string, probe: Promise<unknown>) =>
      probe.then(
        () => 'ok',
        (error: unknown) => {
          ctx.logger.warn({ err: error, check: name }, 'readiness check failed');
          return 'unavailable';
        },
      );
    const checks: Record<string, string> = {
      postgres: await check('postgres', pingDatabase(req.em)),
      temporal: await check('temporal', ctx.checkTemporal()),
    };
    if (ctx.fileStore.kind === 's3')
      checks.file_storage = await check('file_storage', ctx.fileStore.check());
    const ready = Object.values(checks).every((v) => v === 'ok');
    const starts = admissionTotals();
    const waiting =
      checks.postgres === 'ok'
        ? await countSubmissionsAwaitingWorkflow(req.em).catch(() => null)
        : null;
    const body = {
      ok: ready,
      checks,
      workflow_starts: {
        waiting,
        queued: starts.starting,
        in_flight: starts.inFlight,
        window: starts.window,
      },
      links: [{ rel: 'self', href: `${ctx.urls.base}/readyz` }],
    };
    return ready ? { status: 200, body } : { status: 503, body };
  }),
];

/** The health routes alone, for a process without the API (`formward worker`). */
export function healthRouter(ctx: AppContext, checkTemporal: () => Promise<void>): Router {
  const router = express.Router();
  registerRoutes(router, healthRoutes, { ...ctx, checkTemporal });
  return router;
}
