import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';

// OIDC_* (docs/single-sign-on.md): all three of issuer, client id and secret, or none.
describe('single sign-on configuration', () => {
  const all = {
    OIDC_ISSUER: 'https://id.example.com/realms/acme',
    OIDC_CLIENT_ID: 'formward',
    OIDC_CLIENT_SECRET: 'secret',
  };

  it('is off without OIDC_ISSUER, on with all three; the label defaults', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(all).oidc).toEqual({
      issuer: all.OIDC_ISSUER,
      clientId: 'formward',
      clientSecret: 'secret',
      name: 'single sign-on',
    });
    expect(loadConfig({ ...all, OIDC_NAME: 'Acme ID' }).oidc?.name).toBe('Acme ID');
  });

  it.each(['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const)(
    'refuses to start without %s when another is set',
    (left) => {
      const env: Record<string, string> = { ...all };
      delete env[left];
      expect(() => loadConfig(env)).toThrow(new RegExp(`missing: ${left}`));
    },
  );

  it('wants https, except for a provider on this machine', () => {
    expect(() => loadConfig({ ...all, OIDC_ISSUER: 'http://id.example.com' })).toThrow(
      /OIDC_ISSUER: must be an https:\/\/ URL/,
    );
    expect(() => loadConfig({ ...all, OIDC_ISSUER: 'not a url' })).toThrow(/OIDC_ISSUER/);
    expect(loadConfig({ ...all, OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidc?.issuer).toBe(
      'http://127.0.0.1:8080',
    );
  });
});
