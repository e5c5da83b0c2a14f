import type { Orm } from '../../db/orm';
import { Domain } from '../../db/entities';
import { takeDueDomains } from '../../db/sql/domains';
import { checkClaim, type DomainCheckDeps } from './domain-checks';

/** How often a serve process looks for domains due for their re-check. */
export const RECHECK_TICK_MS = 10 * 60_000;
const BATCH = 50;

/**
 * Re-checks the verified domains that are due (daily; failing ones hourly, takeDueDomains),
 * one batch; returns how many were checked. Serve processes share the work: a domain is
 * taken by one of them.
 */
export async function recheckDueDomains(orm: Orm, deps: DomainCheckDeps): Promise<number> {
  const due = await takeDueDomains(orm.em.fork(), BATCH);
  for (const row of due) {
    const em = orm.em.fork();
    const domain = await em.findOne(Domain, { id: row.id });
    if (!domain) continue; // deleted meanwhile
    await checkClaim(em, deps, domain).catch((error: unknown) =>
      deps.logger.warn({ err: error, domain: row.domain }, 'a domain re-check failed; will retry'),
    );
  }
  return due.length;
}

/** Runs recheckDueDomains every `intervalMs` (and once soon after start) until stopped. */
export function startDomainRechecks(deps: DomainCheckDeps & { orm: Orm; intervalMs?: number }): {
  stop(): Promise<void>;
} {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = recheckDueDomains(deps.orm, deps)
      .then((checked) => {
        if (checked > 0) deps.logger.info({ checked }, 'custom domains re-checked');
      })
      .catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'custom domain re-checks failed; will retry'),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(tick, 30_000);
  first.unref();
  const timer = setInterval(tick, deps.intervalMs ?? RECHECK_TICK_MS);
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
