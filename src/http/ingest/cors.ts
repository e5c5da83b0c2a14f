import type { Request, Response } from 'express';

/**
 * Ingest answers carry CORS headers for the requesting origin on every answer, errors
 * included, so a page's script can read why a submission failed (docs/api-conventions.md, Ingest).
 */
export function setIngestCors(req: Request, res: Response): void {
  res.vary('Origin');
  const origin = req.get('origin');
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'Location, Retry-After');
}

export function answerPreflight(req: Request, res: Response): void {
  setIngestCors(req, res);
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    req.get('access-control-request-headers') ?? 'Content-Type, Accept',
  );
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}
