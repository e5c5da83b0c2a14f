import type { RequestHandler, Response } from 'express';

/**
 * Answers that show submissions, files, keys, tokens or signing secrets must stay out of
 * shared browser and proxy caches (docs/api-conventions.md): `Cache-Control: no-store`.
 */
export function setNoStore(res: Response): void {
  res.set('Cache-Control', 'no-store');
}

/** Marks every answer of the routes it is mounted on `no-store` (the authenticated API, /app). */
export const noStore: RequestHandler = (_req, res, next) => {
  setNoStore(res);
  next();
};
