import { createHash } from 'node:crypto';
import { JWTAccess } from 'google-auth-library';
import type { ServiceAccountKey } from './service-account-key';

/*
 * Access tokens of service accounts (Google's OAuth 2.0 JWT-bearer grant). google-auth-library
 * signs the assertion; it never sends anything: the token request, like every Sheets request,
 * goes through the guarded sender, so the SSRF rules hold even for a replaced token URL.
 */

/** Read and write spreadsheets, nothing else of the account. */
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/**
 * The assertion's audience is Google's token endpoint even when GOOGLE_OAUTH_TOKEN_URL points
 * at a proxy: the proxy passes it on to Google, which checks it.
 */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The signed assertion (RS256, one hour): `iss` and `sub` the service account, `aud` the token
 * endpoint, `scope` Sheets. `sub` equal to `iss` asks for the account itself, no delegation.
 */
export function signedAssertion(key: ServiceAccountKey): string {
  const signer = new JWTAccess(key.client_email, key.private_key, key.private_key_id);
  const headers = signer.getRequestHeaders(GOOGLE_TOKEN_AUDIENCE, { scope: SHEETS_SCOPE });
  const authorization = headers.get('authorization') ?? '';
  return authorization.replace(/^Bearer /, '');
}

/** The token request's form body. */
export function tokenRequestBody(key: ServiceAccountKey): string {
  return new URLSearchParams({
    grant_type: JWT_BEARER_GRANT,
    assertion: signedAssertion(key),
  }).toString();
}

type CachedToken = { token: string; refreshAt: number };

/** Tokens this worker holds at most; the oldest goes first. */
const MAX_CACHED_TOKENS = 1_000;

/** Fetched again when less than this is left (a slow attempt must not outlive its token). */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * Access tokens in the worker's memory, one per plugin and key: the key's digest is part of
 * the cache key, so a replaced key never reuses a token of the old one.
 */
export class AccessTokenCache {
  private readonly tokens = new Map<string, CachedToken>();

  constructor(private readonly now: () => number = Date.now) {}

  static keyOf(pluginId: string, keyText: string, tokenUrl: string): string {
    const digest = createHash('sha256').update(keyText).update('\0').update(tokenUrl).digest('hex');
    return `${pluginId}:${digest}`;
  }

  get(cacheKey: string): string | null {
    const cached = this.tokens.get(cacheKey);
    if (!cached) return null;
    if (cached.refreshAt <= this.now()) {
      this.tokens.delete(cacheKey);
      return null;
    }
    return cached.token;
  }

  /** Keeps a token Google said lives `expiresInS` seconds. */
  set(cacheKey: string, token: string, expiresInS: number): void {
    const lifetimeMs = expiresInS * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2);
    this.tokens.delete(cacheKey);
    this.tokens.set(cacheKey, { token, refreshAt: this.now() + lifetimeMs - margin });
    if (this.tokens.size > MAX_CACHED_TOKENS) {
      const oldest = this.tokens.keys().next().value;
      if (oldest !== undefined) this.tokens.delete(oldest);
    }
  }

  /** Forgets a token Google refused (a 401). */
  drop(cacheKey: string): void {
    this.tokens.delete(cacheKey);
  }
}
