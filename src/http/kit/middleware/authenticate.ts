import type { Request, RequestHandler } from 'express';
import type { Principal } from '../../../domain/accounts/principal';
import { findActiveApiKey, recordApiKeyUse, scopesOf } from '../../../domain/accounts/api-keys';
import { MEMBER_ROLE_SCOPES } from '../../../domain/accounts/member-roles';
import { constantTimeEqual } from '../../../domain/accounts/secrets';
import { findSession, type SessionPolicy } from '../../../domain/accounts/sessions';
import type { PublicUrls } from '../../../runtime/public-urls';
import { readSessionCookie } from '../session/cookies';
import { HttpError } from '../errors/http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bearer key first, then the dashboard session cookie. Errors follow the specification:
 * nothing supplied is `unauthorized`, a key matching no active key is `invalid_api_key`.
 */
export function authenticate(urls: PublicUrls, sessions: SessionPolicy): RequestHandler {
  return async (req, _res, next) => {
    const keyPrincipal = await bearerKeyPrincipal(req);
    if (keyPrincipal) {
      req.principal = keyPrincipal;
      return next();
    }
    const token = readSessionCookie(req.headers.cookie, urls.base);
    if (token) {
      const session = await findSession(req.em, token, sessions);
      if (!session) throw new HttpError('unauthorized', 'the session has expired; sign in again');
      if (
        !SAFE_METHODS.has(req.method) &&
        !csrfSatisfied(req.get('x-csrf-token'), req.get('origin'), session.csrfToken, urls)
      ) {
        throw new HttpError(
          'forbidden',
          'a session-authenticated change needs the X-CSRF-Token header or a same-origin Origin',
        );
      }
      req.principal = {
        kind: 'session',
        sessionId: session.id,
        userId: session.userId,
        accountId: session.accountId,
        csrfToken: session.csrfToken,
        role: session.role,
        // A member's role gives them the scopes a key could have: one check for both.
        scopes: new Set(MEMBER_ROLE_SCOPES[session.role]),
      };
      return next();
    }
    throw new HttpError(
      'unauthorized',
      'authentication required: send "Authorization: Bearer <API_KEY>"',
    );
  };
}

/**
 * The principal of the request's bearer key, or undefined when it sends no Authorization
 * header; a malformed header or a key matching no active key is `invalid_api_key`.
 */
export async function bearerKeyPrincipal(req: Request): Promise<Principal | undefined> {
  const header = req.get('authorization');
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new HttpError('invalid_api_key', 'the Authorization header must be "Bearer <API_KEY>"');
  }
  const apiKey = await findActiveApiKey(req.em, match[1]!);
  if (!apiKey) throw new HttpError('invalid_api_key', 'the API key matches no active key');
  recordApiKeyUse(req.em, apiKey);
  return {
    kind: 'api_key',
    apiKeyId: apiKey.id,
    accountId: apiKey.accountId,
    scopes: new Set(scopesOf(apiKey)),
  };
}

function csrfSatisfied(
  header: string | undefined,
  origin: string | undefined,
  expected: string,
  urls: PublicUrls,
) {
  if (header && constantTimeEqual(header, expected)) return true;
  return origin !== undefined && origin === new URL(urls.base).origin;
}
