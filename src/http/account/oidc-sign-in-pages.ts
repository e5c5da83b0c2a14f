import type { Request, Response } from 'express';
import { z } from 'zod';
import { signInExternal } from '../../domain/accounts/external-sign-in';
import { invitationsOfferedTo } from '../../domain/accounts/invitation-offers';
import {
  OidcCallbackError,
  type OidcClient,
  type PendingSignIn,
} from '../../domain/accounts/oidc-client';
import { listUserAccounts } from '../../domain/accounts/memberships';
import { recordAuditEvent } from '../../domain/audit/audit-log';
import { SigningSecretCipher } from '../../domain/secrets/signing-secret';
import type { AppContext } from '../../runtime/app-context';
import {
  clearCookieOptions,
  cookieOptions,
  readCookie,
  setSessionCookie,
} from '../kit/session/cookies';
import { clientAddress } from '../kit/middleware/client-address';
import { definePage, type Render } from '../kit/routing/define-page';
import { sameSitePath } from './next-path';
import { htmlPage } from '../kit/routing/page-operations';

/**
 * Single sign-on (docs/single-sign-on.md). The sign-in's state, nonce, PKCE verifier and
 * `next` wait in a sealed HttpOnly cookie only this browser sends, scoped to these paths,
 * for ten minutes; the callback takes it (whatever its outcome), so it serves once.
 */
const PENDING_COOKIE = 'formward_oidc';
const PENDING_PATH = '/login/oidc';
const PENDING_TTL_MS = 10 * 60_000;

type Pending = PendingSignIn & { next: string | null; expires: number };

/** Sealed under a key of its own: no other sealed value opens as a pending sign-in. */
const ciphers = new WeakMap<AppContext, SigningSecretCipher>();
function cipherOf(ctx: AppContext): SigningSecretCipher {
  let cipher = ciphers.get(ctx);
  if (!cipher)
    ciphers.set(ctx, (cipher = new SigningSecretCipher(ctx.appSecret, 'oidc sign-in v1')));
  return cipher;
}

function keepPending(res: Response, ctx: AppContext, pending: Pending): void {
  res.cookie(PENDING_COOKIE, cipherOf(ctx).seal(JSON.stringify(pending)), {
    ...cookieOptions(ctx.urls.base, PENDING_TTL_MS),
    path: PENDING_PATH,
  });
}

/** The pending sign-in of this browser, which stops being pending now. */
function takePending(req: Request, res: Response, ctx: AppContext): Pending | null {
  const stored = readCookie(req.headers.cookie, PENDING_COOKIE);
  res.clearCookie(PENDING_COOKIE, { ...clearCookieOptions(ctx.urls.base), path: PENDING_PATH });
  if (!stored || !SigningSecretCipher.isSealed(stored)) return null;
  try {
    const pending = JSON.parse(cipherOf(ctx).open(stored)) as Pending;
    return pending.expires > Date.now() ? pending : null;
  } catch {
    return null; // tampered with, or sealed under another APP_SECRET
  }
}

const startQuery = z.object({
  next: z.string().max(2048).optional().describe('a path of this site to return to'),
});

/** What the provider sends back; openid-client reads the whole URL, these are for the reference. */
const callbackQuery = z.object({
  code: z.string().max(8192).optional().describe('the authorization code'),
  state: z.string().max(1024).optional().describe('the state the sign-in started with'),
  error: z.string().max(256).optional().describe('the provider’s refusal, e.g. `access_denied`'),
});

const UNREACHABLE = {
  status: 503,
  error: 'The single sign-on provider cannot be reached right now. Please try again later.',
};

const REFUSALS: Record<OidcCallbackError['reason'], { status: number; error: string }> = {
  unreachable: UNREACHABLE,
  denied: { status: 403, error: 'The sign-in was cancelled at the provider.' },
  provider_error: {
    status: 400,
    error: 'The single sign-on provider refused the sign-in. Please try again.',
  },
  invalid: {
    status: 400,
    error: 'This single sign-on could not be checked, or was already used. Please start again.',
  },
  unverified_email: {
    status: 403,
    error:
      'The single sign-on provider did not confirm that your e-mail address is verified, so ' +
      'it cannot sign you in. Verify the address with the provider, or sign in with a password.',
  },
};

/** The sign-in page again with a message; single sign-on's button stays. */
function refuse(
  render: Render<'login'>,
  oidc: OidcClient,
  next: string | null,
  answer: { status: number; error: string },
) {
  return render({ next, error: answer.error, sso: oidc.name }, { status: answer.status });
}

/**
 * A sign-in refused because the address's user is linked to another subject at the issuer
 * goes into each account of that user (the answer is a 403, which the page's own entry never
 * records): its owners see that someone else at the provider now gives that address.
 */
async function recordRefusedLink(req: Request, userId: string, issuer: string): Promise<void> {
  for (const { accountId } of await listUserAccounts(req.em, userId))
    await recordAuditEvent(req.em, {
      accountId,
      actor: { type: 'user', userId, label: `single sign-on at ${issuer}` },
      clientAddress: clientAddress(req),
      action: 'session.sign_in_refused',
      targetType: 'user',
      targetId: userId,
      summary: `single sign-on refused: another subject at ${issuer} gave this user's address`,
    });
}

/** The pages exist only with OIDC_ISSUER (and the client's id and secret). */
const ssoConfigured = (ctx: AppContext) => ctx.accounts.oidc !== null;

/**
 * `GET /login/oidc` starts a sign-in at the configured OpenID Connect provider and
 * `GET /login/oidc/callback` finishes it; both answer 404 when single sign-on is off.
 */
export const oidcSignInPages = [
  definePage({
    method: 'get',
    path: '/login/oidc',
    access: 'guest',
    template: 'login',
    title: 'Sign in',
    enabled: ssoConfigured,
    query: startQuery,
    document: {
      operationId: 'singleSignOnStart',
      summary: 'Start single sign-on',
      description:
        'Redirects to the OpenID Connect provider (OIDC_ISSUER) with an authorization code ' +
        'request (PKCE S256, `state`, `nonce`), which a short-lived sealed HttpOnly cookie ' +
        'keeps for the callback with `next`. 404 when single sign-on is not configured; 503 ' +
        '(the sign-in page with a message) when the provider cannot be reached.',
      responses: {
        303: {
          description: 'to the provider',
          redirect: true,
          headers: { Location: 'the provider' },
        },
        503: htmlPage('the provider cannot be reached: the sign-in page'),
      },
      errors: [],
    },
  }).handle(async ({ res, query, render }, ctx) => {
    const oidc = ctx.accounts.oidc!;
    const after = sameSitePath(query.next, ctx.urls.base);
    let started: Awaited<ReturnType<OidcClient['start']>>;
    try {
      started = await oidc.start();
    } catch (error) {
      ctx.logger.warn({ err: error }, 'single sign-on: the provider cannot be reached');
      return refuse(render, oidc, after, UNREACHABLE);
    }
    keepPending(res, ctx, {
      ...started.pending,
      next: after,
      expires: Date.now() + PENDING_TTL_MS,
    });
    res.set('Cache-Control', 'no-store');
    res.redirect(303, started.url.href);
  }),

  definePage({
    method: 'get',
    path: '/login/oidc/callback',
    access: 'guest',
    template: 'login',
    title: 'Sign in',
    enabled: ssoConfigured,
    query: callbackQuery,
    audit: { action: 'session.signed_in', target: 'user' },
    document: {
      operationId: 'singleSignOnCallback',
      summary: 'Finish single sign-on',
      description:
        'Where the provider sends the browser back. The sign-in started in this browser is ' +
        'checked (state, PKCE, the ID token and its nonce) and used up; the provider must ' +
        'vouch for the e-mail address (`email_verified`). The user linked to the provider’s ' +
        'subject, else the user with that address (refused, 403, when that user is linked to ' +
        'another subject at the issuer), else a new user with an account of their own, is ' +
        'signed in (the session cookie, as `POST /login` sets it) in the account they used ' +
        'last, and redirected to the sign-in’s `next`, else `/app/invitations` when ' +
        'invitations to the address are open (offered, never accepted by the sign-in), else `/`.',
      responses: {
        303: {
          description: 'signed in',
          redirect: true,
          headers: { Location: '`next`, or /', 'Set-Cookie': 'the session' },
        },
        400: htmlPage('no sign-in pending, a wrong state, a used code: the sign-in page'),
        403: htmlPage(
          'cancelled at the provider, an unverified e-mail, or an address linked to another ' +
            'subject: the sign-in page',
        ),
        503: htmlPage('the provider cannot be reached: the sign-in page'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, render, audit }, ctx) => {
    const oidc = ctx.accounts.oidc!;
    res.set('Cache-Control', 'no-store');
    const pending = takePending(req, res, ctx);
    if (!pending) return refuse(render, oidc, null, REFUSALS.invalid);
    const search = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?'))
      : '';
    const callbackUrl = new URL(`${ctx.urls.base}${PENDING_PATH}/callback${search}`);
    let identity: Awaited<ReturnType<OidcClient['finish']>>;
    try {
      identity = await oidc.finish(callbackUrl, pending);
    } catch (error) {
      if (!(error instanceof OidcCallbackError)) throw error;
      ctx.logger.info({ reason: error.reason, detail: error.message }, 'single sign-on refused');
      return refuse(render, oidc, pending.next, REFUSALS[error.reason]);
    }
    const result = await signInExternal(req.em, identity);
    if (result.kind === 'linked_to_other_subject') {
      await recordRefusedLink(req, result.userId, identity.issuer);
      return refuse(render, oidc, pending.next, {
        status: 403,
        error:
          `This e-mail address is linked to another account at ${identity.issuer}, so this ` +
          'sign-in cannot use it. Sign in with the account you used there before, or with your ' +
          'password.',
      });
    }
    if (result.kind === 'no_account') {
      return refuse(render, oidc, pending.next, {
        status: 403,
        error: 'This address belongs to no account any more: every account it was in was deleted.',
      });
    }
    const { userId, accountId } = result.session;
    Object.assign(audit, { actor: { userId, accountId }, targetId: userId });
    audit.summary = `single sign-on${result.created ? ', a new user' : ''}`;
    setSessionCookie(res, ctx.urls.base, result.token);
    // Invitations to the address wait for a click there; nothing was joined.
    const offered = await invitationsOfferedTo(req.em, identity);
    const landing = offered.length > 0 ? '/app/invitations' : '/';
    res.redirect(303, sameSitePath(pending.next, ctx.urls.base) ?? landing);
  }),
];
