import { createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessTokenCache, requestAccessToken, SHEETS_SCOPE } from './google-access-tokens';

const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = {
  type: 'service_account' as const,
  client_email: 'bot@project.iam.gserviceaccount.com',
  private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

describe('service-account access tokens', () => {
  it('hands a signed JWT-bearer request to our exchange, and makes none of its own', async () => {
    const bodies: string[] = [];
    const answer = await requestAccessToken(key, async (body) => {
      bodies.push(body);
      return { access_token: 'ya29.t', expires_in: 3599 };
    });
    expect(answer).toEqual({ access_token: 'ya29.t', expires_in: 3599 });
    expect(bodies).toHaveLength(1);
    const form = new URLSearchParams(bodies[0]);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [header, payload, signature] = form.get('assertion')!.split('.');
    expect(
      createVerify('RSA-SHA256')
        .update(`${header}.${payload}`)
        .verify(pair.publicKey, Buffer.from(signature!, 'base64url')),
    ).toBe(true);
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: key.client_email, scope: SHEETS_SCOPE });
    expect(claims).not.toHaveProperty('sub');
  });

  it('passes the exchange refusal through unchanged', async () => {
    const refusal = new Error('refused by our sender');
    await expect(requestAccessToken(key, () => Promise.reject(refusal))).rejects.toBe(refusal);
  });

  it('keeps a token per plugin and key until five minutes before it expires', () => {
    let now = 0;
    const cache = new AccessTokenCache(() => now);
    const first = AccessTokenCache.keyOf('p1', '{"key":1}', 'https://t');
    const replaced = AccessTokenCache.keyOf('p1', '{"key":2}', 'https://t');
    const other = AccessTokenCache.keyOf('p2', '{"key":1}', 'https://t');
    expect(new Set([first, replaced, other]).size).toBe(3);
    cache.set(first, 'tok', 3600);
    expect(cache.get(first)).toBe('tok');
    expect(cache.get(replaced)).toBeNull();
    now = 3600_000 - 5 * 60_000 - 1;
    expect(cache.get(first)).toBe('tok');
    now += 1;
    expect(cache.get(first)).toBeNull();
    cache.set(first, 'short', 60); // a short token is kept for half its life
    now += 30_000;
    expect(cache.get(first)).toBeNull();
    cache.set(first, 'again', 3600);
    cache.drop(first);
    expect(cache.get(first)).toBeNull();
  });
});
