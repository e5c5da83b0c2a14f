import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { ping } from '../../db/sql/server';

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: PostgreSQL and Temporal reachable). */
export function healthRouter(ctx: AppContext, checkTemporal: () => Promise<void>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => void res.json({ ok: true }));
  router.get('/readyz', async (req, res) => {
    const checks: Record<string, string> = {};
    await ping(req.em)
      .then(() => (checks.postgres = 'ok'))
      .catch((error: Error) => (checks.postgres = error.message));
    await checkTemporal()
      .then(() => (checks.temporal = 'ok'))
      .catch((error: Error) => (checks.temporal = error.message));
    const ready = Object.values(checks).every((v) => v === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ ok: ready, checks, links: [{ rel: 'self', href: `${ctx.urls.base}/readyz` }] });
  });
  return router;
}
