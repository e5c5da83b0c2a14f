import express, { type RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';

export const JSON_LIMIT = '1mb';

const parseJson = express.json({ limit: JSON_LIMIT, strict: false, type: () => true });

/**
 * Parses a JSON body, refusing other media types with 415. An empty body parses as `{}`
 * so validation can say which fields are missing.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) {
    req.body = {};
    return next();
  }
  if (!req.is('application/json') && !req.is('application/*+json')) {
    throw new HttpError('unsupported_media_type', 'send the body as application/json');
  }
  parseJson(req, res, next);
};
