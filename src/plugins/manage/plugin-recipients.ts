import type { EntityManager } from '@mikro-orm/postgresql';
import { recipientLookup, type RecipientStatus } from '../../domain/recipients/recipient-states';
import { pluginTypeOf } from '../registry';
import { UnreadableConfigError } from '../plugin-type';

/** The addresses a plugin mails (its type's `recipients` hook), or null for a type that mails none. */
function recipientsOf(plugin: { pluginType: string; config: Record<string, unknown> }) {
  try {
    return pluginTypeOf(plugin.pluginType)?.recipients(plugin.config) ?? null;
  } catch (error) {
    // A config an older version stored is shown without its recipients' states.
    if (error instanceof UnreadableConfigError) return null;
    throw error;
  }
}

/** Where the recipients of each plugin that mails stand (undefined for the others), in one query. */
export async function pluginRecipientLookup<
  P extends { pluginType: string; config: Record<string, unknown> },
>(
  em: EntityManager,
  accountId: string,
  plugins: readonly P[],
): Promise<(plugin: P) => RecipientStatus[] | undefined> {
  const lookup = await recipientLookup(
    em,
    accountId,
    plugins.flatMap((plugin) => recipientsOf(plugin) ?? []),
  );
  return (plugin) => {
    const list = recipientsOf(plugin);
    return list ? lookup(list) : undefined;
  };
}
