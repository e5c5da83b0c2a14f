import type * as Client from 'openid-client' with { 'resolution-mode': 'import' };
import { isLoopbackIssuer, type OidcSettings } from '../../config/oidc';
import { systemLookup } from '../../outbound/destination-url';
import { createOutboundFetch, type OutboundFetch } from '../../outbound/outbound-fetch';

/** What a started sign-in keeps until the provider sends the browser back (sealed, in a cookie). */
export type PendingSignIn = { state: string; nonce: string; verifier: string };

/** Why a callback is refused; `denied` when the person declined at the provider. */
export class OidcCallbackError extends Error {
  constructor(
    readonly reason: 'denied' | 'provider_error' | 'invalid' | 'unverified_email' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

/** openid-client is an ES module only: loaded on first use. */
const openidClient = () => import('openid-client');

/** How long a failed discovery is remembered before the next sign-in asks again. */
const DISCOVERY_RETRY_MS = 10_000;

/** Each request to the provider (discovery, token, keys, UserInfo): openid-client's timeout. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * The largest answer read from the provider. Discovery documents and key sets are a few KB
 * (Google's, Entra ID's and Keycloak's under 10 KB); this leaves room and bounds the memory
 * a misbehaving provider can take.
 */
export const PROVIDER_ANSWER_BYTES = 1024 * 1024;

/**
 * The provider's HTTP through the outbound machinery (src/outbound/outbound-fetch.ts): its
 * timeouts, the answer capped, no redirect followed. The issuer is the operator's choice
 * (OIDC_ISSUER), often on the private network: an `operator` destination, resolved by the
 * system's resolver as before (DNS_SERVERS is for tenants' names).
 */
export function createProviderFetch(): { fetch: OutboundFetch; close(): Promise<void> } {
  const timeoutMs = PROVIDER_TIMEOUT_SECONDS * 1000;
  return createOutboundFetch({
    destinations: 'operator',
    connectTimeoutMs: timeoutMs,
    readTimeoutMs: timeoutMs,
    deadlineMs: timeoutMs,
    lookupHost: systemLookup,
    maxResponseBytes: PROVIDER_ANSWER_BYTES,
  });
}

/**
 * The OpenID Connect relying party (openid-client): the authorization code flow with PKCE
 * (S256), `state` and `nonce`. The provider's metadata is discovered at the first sign-in and
 * kept; a failed discovery is retried by a later sign-in, so an outage of the provider
 * never stops the service.
 */
export class OidcClient {
  private discovered: Promise<Client.Configuration> | null = null;
  private failedAt = 0;

  constructor(
    readonly settings: OidcSettings,
    /** `${BASE_URL}/login/oidc/callback`, read late (the server may move to its real port). */
    private readonly redirectUri: () => string,
    /** Every request to the provider goes through it (createProviderFetch). */
    private readonly http: { fetch: OutboundFetch; close(): Promise<void> },
  ) {}

  get name(): string {
    return this.settings.name;
  }

  /** The provider's authorization URL for a new sign-in, and what its callback must match. */
  async start(): Promise<{ url: URL; pending: PendingSignIn }> {
    const client = await openidClient();
    const config = await this.configuration();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: 'openid email profile',
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * Checks the callback (state, the code exchanged with the PKCE verifier, the ID token's
   * issuer, audience and nonce; the token comes from the token endpoint over TLS, so its
   * signature is not checked) and answers the subject and its verified e-mail.
   */
  async finish(
    callbackUrl: URL,
    pending: PendingSignIn,
  ): Promise<{ issuer: string; subject: string; email: string }> {
    const client = await openidClient();
    const config = await this.configuration().catch(() => {
      throw new OidcCallbackError('unreachable', 'the provider cannot be reached');
    });
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      // Some providers put the address in the ID token, others only in UserInfo (same subject).
      claims =
        idToken && idToken.email === undefined
          ? {
              ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)),
              sub: idToken.sub,
            }
          : idToken;
    } catch (error) {
      throw refusal(client, error);
    }
    if (!claims) throw new OidcCallbackError('invalid', 'the provider sent no ID token');
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (!email || claims.email_verified !== true || email.includes('\0')) {
      throw new OidcCallbackError(
        'unverified_email',
        'the provider did not vouch for a verified e-mail address',
      );
    }
    return { issuer: config.serverMetadata().issuer, subject: String(claims.sub), email };
  }

  /** Closes the connections kept to the provider. */
  close(): Promise<void> {
    return this.http.close();
  }

  private async configuration(): Promise<Client.Configuration> {
    const client = await openidClient();
    if (this.discovered && (this.failedAt === 0 || Date.now() - this.failedAt < DISCOVERY_RETRY_MS))
      return this.discovered;
    const { issuer, clientId, clientSecret } = this.settings;
    this.failedAt = 0;
    this.discovered = client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // Discovery, and (kept on the Configuration) the token request, the keys and UserInfo.
      [client.customFetch]: this.http.fetch,
      // Plain http only for a provider on this machine (config/oidc.ts refuses any other).
      execute: isLoopbackIssuer(issuer) ? [client.allowInsecureRequests] : [],
    });
    this.discovered.catch(() => {
      this.failedAt = Date.now();
    });
    return this.discovered;
  }
}

function refusal(client: typeof Client, error: unknown): OidcCallbackError {
  if (error instanceof client.AuthorizationResponseError) {
    return error.error === 'access_denied'
      ? new OidcCallbackError('denied', 'the sign-in was cancelled at the provider')
      : new OidcCallbackError('provider_error', `the provider answered ${error.error}`);
  }
  // A wrong or missing state, a used or foreign code, a bad ID token: never the values.
  const code = (error as { code?: unknown }).code;
  return new OidcCallbackError(
    'invalid',
    `the sign-in could not be checked${typeof code === 'string' ? ` (${code})` : ''}`,
  );
}
