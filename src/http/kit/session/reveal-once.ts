import type { RequestHandler, Response } from 'express';
import { SigningSecretCipher } from '../../../domain/secrets/signing-secret';
import type { AppContext } from '../../../runtime/app-context';
import { cookieOptions, readCookie } from './cookies';
import { sessionOf } from './session-guard';

/**
 * A secret shown once after a form post (a new API key, a webhook's signing secret), the
 * post/redirect/get way: the post seals the page's data into a short-lived HttpOnly cookie
 * scoped to the page's path and answers 303; the next GET of that path takes it (clearing the
 * cookie) and the page shows it with `Cache-Control: no-store`. A reload shows the page
 * without it and posts nothing again. The secret never appears in a URL.
 */
const REVEAL_COOKIE = 'formward_reveal';
/** Long enough to follow the redirect, short enough not to linger. */
const REVEAL_TTL_MS = 2 * 60_000;

type Sealed = { sessionId: string; path: string; expires: number; data: Record<string, unknown> };

/**
 * Keeps `data` for the next GET of `path` (the caller then redirects there). It is sealed
 * with the signing-secret cipher (AES-256-GCM) and bound to the session.
 */
export function revealOnce(
  res: Response,
  ctx: AppContext,
  path: string,
  data: Record<string, unknown>,
): void {
  const sealed: Sealed = {
    sessionId: sessionOf(res).sessionId,
    path,
    expires: Date.now() + REVEAL_TTL_MS,
    data,
  };
  res.cookie(REVEAL_COOKIE, ctx.signingSecrets.seal(JSON.stringify(sealed)), {
    ...cookieOptions(ctx.urls.base, REVEAL_TTL_MS),
    path,
  });
}

/**
 * After requireSession: on a GET of the path a reveal was kept for, moves its data to
 * `res.locals.revealed` (sendAppPage adds it to the page) and clears the cookie.
 */
export function takeReveal(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const stored = req.method === 'GET' && readCookie(req.headers.cookie, REVEAL_COOKIE);
    if (stored) {
      const sealed = openSealed(ctx, stored);
      const path = req.baseUrl + req.path;
      if (sealed?.path === path) {
        res.clearCookie(REVEAL_COOKIE, { path });
        if (sealed.sessionId === sessionOf(res).sessionId && sealed.expires > Date.now())
          res.locals.revealed = sealed.data;
      }
    }
    next();
  };
}

/** The data kept for this request's page, if it took one. */
export function revealedData(res: Response): Record<string, unknown> | undefined {
  return res.locals.revealed as Record<string, unknown> | undefined;
}

function openSealed(ctx: AppContext, stored: string): Sealed | null {
  // open() passes plain text through (old signing secrets), so anything unsealed is refused.
  if (!SigningSecretCipher.isSealed(stored)) return null;
  try {
    return JSON.parse(ctx.signingSecrets.open(stored)) as Sealed;
  } catch {
    return null; // tampered with, sealed under another APP_SECRET, or not ours
  }
}
