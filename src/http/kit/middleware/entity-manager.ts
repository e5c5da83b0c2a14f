import type { Express } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../../runtime/app-context';

const FORK = Symbol('entity manager fork');

type WithFork = { [FORK]?: EntityManager };

/**
 * One EntityManager fork per request, as MikroORM recommends, made when the request first
 * uses `req.em`: an ingest post whose form is cached never does (its row goes through the
 * group commit), and a fork is not free. Defined once on the app's request prototype, not
 * per request.
 */
export function entityManagerPerRequest(app: Express, orm: AppContext['orm']): void {
  Object.defineProperty(app.request, 'em', {
    configurable: true,
    get(this: WithFork) {
      return (this[FORK] ??= orm.em.fork());
    },
    set(this: WithFork, em: EntityManager) {
      this[FORK] = em;
    },
  });
}
