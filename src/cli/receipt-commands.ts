import type { Config } from '../config/config';
import { createReceipts } from '../domain/receipts/receipts';
import { resolveAppSecret } from '../runtime/app-secret';
import { withDatabase } from './database-session';
import { printJson } from './output';

/**
 * `formward receipts rotate-key` (docs/receipts.md): adds a new receipt signing key. It is
 * published at once and signs once every process and cached key set has it; the old keys stay
 * published, so the receipts they signed still verify.
 */
export async function receiptsRotateKey(config: Config): Promise<void> {
  const appSecret = resolveAppSecret(config.appSecret, config.dataDir);
  await withDatabase(config, async (orm) => {
    const receipts = createReceipts(orm, appSecret);
    const { kid, signsFrom } = await receipts.keys.rotate();
    const published = (await receipts.jwks()).keys.map((key) => key.kid);
    printJson({ kid, signs_from: signsFrom.toISOString(), published });
  });
}
