import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: the login typed on its form, and what it says of them. */
export type ProviderPerson = { email: string; email_verified: boolean };

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers who signs in with `login` at the provider's form (any password works). */
  addPerson(login: string, person: ProviderPerson): void;
  /** The environment that points the stack at this provider. */
  env(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
};

/** A free port on 127.0.0.1 (for a stack whose callback URL the provider must know first). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real OpenID Connect provider (oidc-provider) over http on 127.0.0.1, with one confidential
 * client whose redirect URI is `${stackUrl}/login/oidc/callback`, PKCE required, and its
 * development login and consent forms (any login, any password). On `port` if given.
 */
export async function startOidcProvider(
  stackUrl: string,
  options: { port?: number } = {},
): Promise<TestOidcProvider> {
  const people = new Map<string, ProviderPerson>();
  const clientId = 'formward-test';
  const clientSecret = 'a client secret for the tests only, long enough';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${stackUrl}/login/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['test provider cookie key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...person }) };
    },
  });
  // Its warnings about development keys and interactions are expected here.
  provider.on('server_error', (_ctx, error) => console.error('test OIDC provider:', error));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    addPerson: (login, person) => people.set(login, person),
    env: (extra = {}) => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      ...extra,
    }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
