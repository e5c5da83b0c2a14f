import type { EntityManager } from '@mikro-orm/postgresql';
import { recipientStates } from '../../db/sql/recipients';

/** One recipient as the Form and the Plugin show it. */
export type RecipientStatus = { address: string; confirmed: boolean };

/** Trimmed, lower case, without repeats, in their order: how addresses are compared. */
export function normalizedAddresses(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
}

/**
 * Whether each address is confirmed for the account: a lookup for a batch of forms or
 * plugins, so a list answer costs one query.
 */
export async function recipientLookup(
  em: EntityManager,
  accountId: string,
  addresses: readonly string[],
): Promise<(addresses: readonly string[]) => RecipientStatus[]> {
  const rows = await recipientStates(em, accountId, normalizedAddresses(addresses));
  const confirmed = new Map(rows.map((row) => [row.address, row.confirmed]));
  return (list) =>
    list.map((address) => ({
      address,
      confirmed: confirmed.get(address.trim().toLowerCase()) ?? false,
    }));
}

/** The addresses that may be mailed now, and those held back (unconfirmed or unsubscribed). */
export async function splitDeliverable(
  em: EntityManager,
  accountId: string,
  addresses: readonly string[],
): Promise<{ deliverable: string[]; held: string[] }> {
  const rows = await recipientStates(em, accountId, normalizedAddresses(addresses));
  return {
    deliverable: rows.filter((row) => row.confirmed).map((row) => row.address),
    held: rows.filter((row) => !row.confirmed).map((row) => row.address),
  };
}
