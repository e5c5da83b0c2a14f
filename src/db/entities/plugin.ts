import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import {
  bigintColumn,
  createdAtColumn,
  idColumn,
  timestampColumn,
  updatedAtColumn,
} from './columns';

/** Stored as the domain checked it (src/plugins/manage/conditions.ts). */
export type PluginConditions = {
  match: 'all' | 'any';
  rules: { field: string; op: string; value?: string | string[] }[];
};

/**
 * A delivery target of a form. Deleting one sets `deletedAt` so its delivery records keep
 * their plugin; the signing secret is stored as issued because deliveries sign with it.
 */
export const Plugin = defineEntity({
  name: 'Plugin',
  tableName: 'plugins',
  properties: {
    id: idColumn(),
    formId: bigintColumn(),
    pluginType: p.string(),
    name: p.string(),
    enabled: p.boolean(),
    config: p.json<Record<string, unknown>>(),
    signingSecret: p.string().nullable(),
    /** Which submissions it gets (src/plugins/manage/conditions.ts); null: all. */
    conditions: p.json<PluginConditions>().nullable(),
    /** The fields it is sent (src/plugins/manage/include-fields.ts); null: all. */
    includeFields: p.json<string[]>().nullable(),
    deletedAt: timestampColumn().nullable(),
    /** Exhausted deliveries in a row (docs/endpoint-health.md); a success resets it. */
    consecutiveFailures: p.integer().default(0),
    /** When the current run of failures began; null while deliveries succeed. */
    failingSince: timestampColumn().nullable(),
    lastSuccessAt: timestampColumn().nullable(),
    /** Why the plugin is disabled (by the account, or after sustained failure); null when enabled. */
    disabledReason: p.text().nullable(),
    disabledAt: timestampColumn().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type Plugin = InferEntity<typeof Plugin>;
