import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../domain/accounts/secrets';

/**
 * APP_SECRET when set; otherwise one generated once and kept under DATA_DIR. An existing but
 * empty file is refused rather than used: every key derived from it would be guessable.
 */
export function resolveAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
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
  return stored;
}
