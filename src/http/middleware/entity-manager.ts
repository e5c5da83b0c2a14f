import type { RequestHandler } from 'express';
import type { Orm } from '../../db/orm';

/** One EntityManager fork per request, as MikroORM recommends. */
export function entityManagerPerRequest(orm: Orm): RequestHandler {
  return (req, _res, next) => {
    req.em = orm.em.fork();
    next();
  };
}
