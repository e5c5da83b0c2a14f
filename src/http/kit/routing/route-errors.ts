import { SCOPES, type Scope } from '../../../domain/accounts/scopes';
import { resolveErrorRef, type ErrorCode, type ErrorRef } from '../errors/error-codes';
import type { AnyOperation } from './define-route';

export type DeclaredError = { code: ErrorCode; status: number };

/** The codes every operation of a kind can answer, on top of its own. */
function impliedErrors(route: AnyOperation): ErrorRef[] {
  const codes: ErrorRef[] = [];
  // A key sent to a session-only operation is still checked first, so it can be invalid too.
  if (route.access !== 'public') codes.push('unauthorized', 'invalid_api_key');
  const changes = route.method !== 'get' && route.method !== 'options';
  // A scope check, or the CSRF check of a session-authenticated change (docs/api-conventions.md, Authentication and scopes).
  if (SCOPES.includes(route.access as Scope) || (changes && route.access !== 'public'))
    codes.push('forbidden');
  // A change counts against API_WRITE_RATE (docs/api-conventions.md, Limits).
  if (changes && route.access !== 'public') codes.push('rate_limited');
  if (route.body && !route.body.readByHandler)
    codes.push('invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_failed');
  if (route.query) codes.push('validation_failed');
  codes.push('internal_error');
  // A database restart (docs/api-conventions.md, Errors), unless the route answers 503 itself.
  if (!(503 in route.responses)) codes.push('unavailable');
  return codes;
}

/** Every error a route can answer, by status then code: the document's and the runtime check's. */
export function routeErrors(route: AnyOperation): DeclaredError[] {
  const seen = new Map<string, DeclaredError>();
  for (const ref of [...route.errors, ...impliedErrors(route)]) {
    const error = resolveErrorRef(ref);
    seen.set(`${error.status} ${error.code}`, error);
  }
  return [...seen.values()].sort((a, b) => a.status - b.status);
}
