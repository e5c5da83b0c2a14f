import { createPrivateKey } from 'node:crypto';

/*
 * A Google service-account key, the JSON file the Cloud console downloads. Only what signing
 * needs is kept. Every problem is told in our own words: a JSON parser's message quotes the
 * text around the error, and that text is the private key.
 */

/** A key file is about 2.3 KB; anything much larger is not one. */
export const MAX_KEY_JSON_CHARS = 16_384;

export type ServiceAccountKey = {
  type: 'service_account';
  client_email: string;
  private_key: string;
  private_key_id?: string;
};

const EMAIL = /^[^\s@]{1,64}@[A-Za-z0-9.-]{1,190}$/;

/** The key, or a problem with it that quotes none of it. */
export function parseServiceAccountKey(
  text: string,
): { ok: true; key: ServiceAccountKey } | { ok: false; problem: string } {
  const refuse = (problem: string) => ({ ok: false as const, problem });
  if (text.trim() === '') return refuse('paste the JSON key file of a service account');
  if (text.length > MAX_KEY_JSON_CHARS)
    return refuse(`is longer than a key file (${MAX_KEY_JSON_CHARS} characters at most)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse('is not valid JSON; paste the whole key file, braces included');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return refuse('must be a JSON object (the key file)');
  const fields = parsed as Record<string, unknown>;
  if (fields.type !== 'service_account')
    return refuse('is not a service-account key ("type" must be "service_account")');
  const email = fields.client_email;
  if (typeof email !== 'string' || !EMAIL.test(email))
    return refuse('has no valid "client_email" (the service account\'s address)');
  const pem = fields.private_key;
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN PRIVATE KEY-----'))
    return refuse('has no "private_key" in PEM form (-----BEGIN PRIVATE KEY-----)');
  if (!isRsaPrivateKey(pem))
    return refuse(
      `has a "private_key" that is not a readable RSA key of at most ${MAX_RSA_BITS} bits`,
    );
  const tokenUri = fields.token_uri;
  if (tokenUri !== undefined && (typeof tokenUri !== 'string' || !tokenUri.startsWith('https://')))
    return refuse('has a "token_uri" that is not an https URL');
  const keyId = fields.private_key_id;
  return {
    ok: true,
    key: {
      type: 'service_account',
      client_email: email,
      private_key: pem,
      ...(typeof keyId === 'string' &&
        /^[A-Za-z0-9]{1,64}$/.test(keyId) && { private_key_id: keyId }),
    },
  };
}

/** Google's keys are 2048 bits; a huge one would only make every signature slow. */
const MAX_RSA_BITS = 4096;

/** Google signs with RS256, so only an RSA key will do. */
function isRsaPrivateKey(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return (
      key.asymmetricKeyType === 'rsa' &&
      (key.asymmetricKeyDetails?.modulusLength ?? Infinity) <= MAX_RSA_BITS
    );
  } catch {
    return false;
  }
}
