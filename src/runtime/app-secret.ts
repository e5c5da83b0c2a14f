import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../domain/accounts/secrets';

/**
 * The least APP_SECRET we start with. The key sealing webhook signing secrets is derived from
 * it, so whoever holds a database dump can guess a short one offline and open every secret.
 */
export const MIN_APP_SECRET_BYTES = 32;

/** The command docs/configuration.md gives too: 48 random bytes, 64 characters of base64. */
export const MAKE_APP_SECRET = 'openssl rand -base64 48';

function tooShort(secret: string, source: string): Error {
  const bytes = Buffer.byteLength(secret, 'utf8');
  return new Error(
    `${source} has ${bytes} bytes; it needs at least ${MIN_APP_SECRET_BYTES}, since every ` +
      `sealed webhook signing secret is only as strong as it. Make one with \`${MAKE_APP_SECRET}\` ` +
      '(a changed APP_SECRET cannot open secrets sealed with the old one: rotate them after).',
  );
}

/**
 * APP_SECRET when set; otherwise one generated once and kept under DATA_DIR. A secret shorter
 * than MIN_APP_SECRET_BYTES (an empty file included) is refused rather than used.
 */
export function resolveAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) {
    if (Buffer.byteLength(configured, 'utf8') < MIN_APP_SECRET_BYTES) {
      throw tooShort(configured, 'APP_SECRET');
    }
    return configured;
  }
  const file = path.join(dataDir, 'app-secret');
  let stored: string;
  try {
    stored = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomToken(32);
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
  if (!stored) {
    throw new Error(
      `${file} is empty: delete it to have a new secret generated (webhook signing secrets ` +
        'sealed with the old one must then be rotated), or set APP_SECRET',
    );
  }
  if (Buffer.byteLength(stored, 'utf8') < MIN_APP_SECRET_BYTES) throw tooShort(stored, file);
  return stored;
}
