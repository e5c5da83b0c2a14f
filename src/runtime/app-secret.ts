import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../domain/accounts/secrets';

/** APP_SECRET when set; otherwise one generated once and kept under DATA_DIR. */
export function resolveAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'app-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomToken(32);
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
