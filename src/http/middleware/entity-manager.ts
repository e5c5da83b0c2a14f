import type { RequestHandler } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../runtime/app-context';

/**
 * One EntityManager fork per request, as MikroORM recommends, made when the request first
 * uses it: an ingest post whose form is cached never does (its row goes through the group
 * commit), and a fork is not free.
 */
export function entityManagerPerRequest(orm: AppContext['orm']): RequestHandler {
  return (req, _res, next) => {
    let em: EntityManager | undefined;
    Object.defineProperty(req, 'em', {
      configurable: true,
      enumerable: true,
      get: () => (em ??= orm.em.fork()),
      set: (value: EntityManager) => void (em = value),
    });
    next();
  };
}
