import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty, updatedAtProperty } from './timestamps';

/**
 * A delivery target of a form. Deleting one sets `deletedAt` so its delivery records keep
 * their plugin; the signing secret is stored as issued because deliveries sign with it.
 */
export class Plugin {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: string;
  formId!: string;
  pluginType!: string;
  name!: string;
  enabled!: boolean;
  config!: Record<string, unknown>;
  signingSecret!: string | null;
  deletedAt!: Date | null;
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
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
