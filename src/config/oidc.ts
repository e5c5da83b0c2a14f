import { z } from 'zod';

/** Single sign-on with an OpenID Connect provider (docs/single-sign-on.md); null when off. */
export type OidcSettings = {
  /** The provider's issuer URL, as its discovery document names it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The label of the "Sign in with …" button. */
  name: string;
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an issuer on this machine, which may use plain http (a provider in development). */
export function isLoopbackIssuer(issuer: string): boolean {
  return URL.canParse(issuer) && LOOPBACK_HOSTS.has(new URL(issuer).hostname);
}

const text = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const oidcEnvironment = z.object({
  OIDC_ISSUER: text.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
      .refine((url) => url.startsWith('https://') || isLoopbackIssuer(url), {
        error: 'must be an https:// URL (http only for localhost)',
      })
      .optional(),
  ),
  OIDC_CLIENT_ID: text,
  OIDC_CLIENT_SECRET: text,
  OIDC_NAME: text,
});

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: all three or none, so a half-made
 * configuration stops the start rather than showing a button that cannot work. The provider
 * itself is not asked here (discovery happens at the first sign-in), so its outage does not
 * stop the service.
 */
export function loadOidcSettings(env: NodeJS.ProcessEnv): OidcSettings | null {
  const parsed = oidcEnvironment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME } = parsed.data;
  const given = { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET };
  const missing = Object.entries(given).filter(([, value]) => value === undefined);
  if (missing.length === 3) return null;
  if (missing.length > 0) {
    const names = missing.map(([name]) => name).join(', ');
    throw new Error(
      `invalid configuration:\n  single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and ` +
        `OIDC_CLIENT_SECRET together; missing: ${names}`,
    );
  }
  return {
    issuer: OIDC_ISSUER!,
    clientId: OIDC_CLIENT_ID!,
    clientSecret: OIDC_CLIENT_SECRET!,
    name: OIDC_NAME ?? 'single sign-on',
  };
}
