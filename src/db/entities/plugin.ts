import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty, updatedAtProperty } from './timestamps';

/**
 * A delivery target of a form. Deleting one sets `deletedAt` so its delivery records keep
 * their plugin; the signing secret is stored as issued because deliveries sign with it.
 */
export class Plugin {
  [OptionalProps]?:
    | 'createdAt'
    | 'updatedAt'
    | 'consecutiveFailures'
    | 'failingSince'
    | 'lastSuccessAt'
    | 'disabledReason'
    | 'disabledAt';
  id!: string;
  formId!: string;
  pluginType!: string;
  name!: string;
  enabled!: boolean;
  config!: Record<string, unknown>;
  signingSecret!: string | null;
  deletedAt!: Date | null;
  /** Exhausted deliveries in a row (docs/endpoint-health.md); a success resets it. */
  consecutiveFailures!: number;
  /** When the current run of failures began; null while deliveries succeed. */
  failingSince!: Date | null;
  lastSuccessAt!: Date | null;
  /** Why the plugin is disabled (by the account, or after sustained failure); null when enabled. */
  disabledReason!: string | null;
  disabledAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const PluginSchema = new EntitySchema<Plugin>({
  class: Plugin,
  tableName: 'plugins',
  properties: {
    id: idProperty,
    formId: bigintColumn,
    pluginType: { type: 'string' },
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    config: { type: 'json' },
    signingSecret: { type: 'string', nullable: true },
    deletedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    consecutiveFailures: { type: 'integer', default: 0 },
    failingSince: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastSuccessAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    disabledReason: { type: 'text', nullable: true },
    disabledAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
