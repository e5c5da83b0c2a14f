import express, { type Request, type Response } from 'express';
import type { z } from 'zod';
import { runMiddleware } from '../middleware/run-middleware';
import { guestCsrfMatches } from './guest-csrf';

const formBody = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * Reads a signed-out form's urlencoded body: over 16kb it is refused (413
 * `payload_too_large`), an unknown charset too (415 `unsupported_media_type`).
 */
export function readGuestFormBody(req: Request, res: Response): Promise<void> {
  return runMiddleware(formBody, req, res);
}

/**
 * A read guest post: its fields when they fit the schema and its `_csrf` matches the cookie;
 * refused otherwise, with the fields when they fit (only the token was missing or wrong).
 */
export function checkGuestForm<S extends z.ZodObject>(
  req: Request,
  schema: S | undefined,
): { accepted: boolean; form: z.output<S> | undefined } {
  const body: unknown = req.body ?? {};
  const fields = schema?.safeParse(body);
  const form = fields?.success ? fields.data : undefined;
  const presented = (body as { _csrf?: unknown })._csrf;
  return { accepted: (!fields || fields.success) && guestCsrfMatches(req, presented), form };
}
