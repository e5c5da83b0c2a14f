import type { RequestHandler } from 'express';
import { can } from '../../domain/accounts/principal';
import type { Scope } from '../../domain/accounts/scopes';
import { HttpError } from '../http-error';

export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal || !can(req.principal, scope)) {
      throw new HttpError(403, 'forbidden', `this key lacks the ${scope} scope`);
    }
    next();
  };
}
