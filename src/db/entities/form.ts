import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty, updatedAtProperty } from './timestamps';

export class Form {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: string;
  accountId!: string;
  name!: string;
  endpointToken!: string;
  successRedirectUrl!: string | null;
  isActive!: boolean;
  /** false: multipart file parts are refused (docs/api-conventions.md, Ingest). */
  acceptFiles!: boolean;
  allowedDomains!: string[];
  notificationEmailAddresses!: string[];
  createdAt!: Date;
  updatedAt!: Date;
}

export const FormSchema = new EntitySchema<Form>({
  class: Form,
  tableName: 'forms',
  properties: {
    id: idProperty,
    accountId: bigintColumn,
    name: { type: 'string' },
    endpointToken: { type: 'string' },
    successRedirectUrl: { type: 'string', nullable: true },
    isActive: { type: 'boolean' },
    acceptFiles: { type: 'boolean' },
    allowedDomains: { type: 'text[]' },
    notificationEmailAddresses: { type: 'text[]' },
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
