import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement } from './execute';

/** Sets the key's `last_used_at` to now. */
export async function touchApiKey(em: EntityManager, id: string): Promise<void> {
  await runStatement(em, 'update api_keys set last_used_at = now() where id = ?', [id]);
}
