import type { Request, RequestHandler, Response } from 'express';

/** Runs an Express middleware (a body parser) inside a handler, at the point the handler chooses. */
export function runMiddleware(middleware: RequestHandler, req: Request, res: Response) {
  return new Promise<void>((resolve, reject) =>
    middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
  );
}
