import { createHash } from 'node:crypto';
import { GoogleToken, type Transporter } from 'google-auth-library';
import type { ServiceAccountKey } from './service-account-key';

/*
 * Access tokens of service accounts (Google's OAuth 2.0 JWT-bearer grant). google-auth-library's
 * GoogleToken builds and signs the assertion (`iss` the account, `scope`, `aud` Google's token
 * endpoint, one hour, no `sub`: no delegation) and hands the request to the transporter it is
 * given; ours sends it through the guarded sender, so the library never makes a request of its
 * own and the SSRF rules hold even for a replaced GOOGLE_OAUTH_TOKEN_URL. The assertion's
 * audience stays Google's: a proxy at that URL passes it on to Google, which checks it.
 */

/** Read and write spreadsheets, nothing else of the account. */
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** What Google's token endpoint answers (RFC 6749 §5.1). */
export type TokenAnswer = { access_token?: unknown; expires_in?: unknown };

/**
 * A new access token for the key. `exchange` POSTs the form body (grant type and assertion) to
 * the token endpoint and returns its parsed answer, or throws its own error on a refusal,
 * which reaches the caller unchanged.
 */
export async function requestAccessToken(
  key: ServiceAccountKey,
  exchange: (formBody: string) => Promise<TokenAnswer>,
): Promise<TokenAnswer> {
  const transporter: Transporter = {
    // GoogleToken reads only the answer's `data`.
    request: async (options) => ({ data: await exchange(String(options.data)) }) as never,
  };
  const token = new GoogleToken({
    iss: key.client_email,
    key: key.private_key,
    scope: SHEETS_SCOPE,
    transporter,
  });
  return (await token.getToken()) as TokenAnswer;
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
