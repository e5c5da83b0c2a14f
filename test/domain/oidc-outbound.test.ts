import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { createAccountServices } from '../../src/domain/accounts/account-services';
import {
  createProviderFetch,
  OidcClient,
  PROVIDER_ANSWER_BYTES,
} from '../../src/domain/accounts/oidc-client';
import type { OutboundFetch } from '../../src/outbound/outbound-fetch';
import { CookieJar, passProviderForms } from '../support/oidc-flow';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';

// Single sign-on's HTTP goes through the outbound machinery (src/outbound/outbound-fetch.ts),
// as every other outbound request does: its answer cap, timeouts, no redirect followed.

/** The account services as the app builds them, pointed at `issuer`. */
function servicesFor(issuer: string) {
  return createAccountServices({
    config: loadConfig({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'formward',
      OIDC_CLIENT_SECRET: 'a secret',
    }),
    logger: pino({ level: 'silent' }),
    appSecret: 'an app secret for this test only, long enough to derive keys from',
    pool: {} as Pool,
    baseUrl: () => 'http://127.0.0.1:1',
  });
}

describe('the provider answers through the outbound adapter', () => {
  let server: Server;
  let issuer = '';
  let padding = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/.well-known/openid-configuration') {
        res.writeHead(404).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          padding: 'x'.repeat(padding),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads a discovery document of a normal size (a provider on this machine, plain http)', async () => {
    padding = 1000;
    const { oidc, mailing } = servicesFor(issuer);
    try {
      const { url } = await oidc!.start();
      expect(url.href.startsWith(`${issuer}/auth?`)).toBe(true);
    } finally {
      await oidc!.close();
      mailing.mailer.close();
    }
  });

  it('refuses a discovery document larger than the answer cap (openid-client alone reads it)', async () => {
    padding = PROVIDER_ANSWER_BYTES;
    const { oidc, mailing } = servicesFor(issuer);
    try {
      await expect(oidc!.start()).rejects.toThrow(
        `${issuer}/.well-known/openid-configuration: the answer is larger than ${PROVIDER_ANSWER_BYTES} bytes`,
      );
    } finally {
      await oidc!.close();
      mailing.mailer.close();
    }
  });
});

describe('a whole sign-in at a real provider', () => {
  const stack = 'http://127.0.0.1:1';
  let provider: TestOidcProvider;

  beforeAll(async () => {
    provider = await startOidcProvider(stack);
    provider.addPerson('ada', { email: 'ada@example.com', email_verified: true });
  });

  afterAll(() => provider.stop());

  it('sends discovery, the token request and UserInfo through the adapter', async () => {
    const http = createProviderFetch();
    const seen: string[] = [];
    const recording: OutboundFetch = (url, init) => {
      seen.push(`${init?.method ?? 'GET'} ${url}`);
      return http.fetch(url, init);
    };
    const client = new OidcClient(
      {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        name: 'test',
      },
      () => `${stack}/login/oidc/callback`,
      { fetch: recording, close: http.close },
    );
    try {
      const { url, pending } = await client.start();
      const callback = await passProviderForms(new CookieJar(), url.href, stack, 'ada');
      const identity = await client.finish(new URL(callback), pending);
      expect(identity).toMatchObject({ issuer: provider.issuer, email: 'ada@example.com' });
      const metadata = (await (
        await fetch(`${provider.issuer}/.well-known/openid-configuration`)
      ).json()) as Record<string, string>;
      // No key set: an ID token straight from the token endpoint is taken on the strength of
      // that connection (OpenID Connect Core 3.1.3.7); a key set would go the same way.
      expect(seen).toEqual([
        `GET ${provider.issuer}/.well-known/openid-configuration`,
        `POST ${metadata.token_endpoint}`,
        `GET ${metadata.userinfo_endpoint}`,
      ]);
    } finally {
      await client.close();
    }
  });
});
