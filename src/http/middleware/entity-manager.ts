import type { RequestHandler } from 'express';
import type { AppContext } from '../../runtime/app-context';

/** One EntityManager fork per request, as MikroORM recommends. */
export function entityManagerPerRequest(orm: AppContext['orm']): RequestHandler {
  return (req, _res, next) => {
    req.em = orm.em.fork();
    next();
  };
}
