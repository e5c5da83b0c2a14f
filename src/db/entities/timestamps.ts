import { BigIntType } from '@mikro-orm/core';

/** Column definitions shared by every table: creation and update times as timestamptz. */
export const createdAtProperty = {
  type: 'datetime',
  columnType: 'timestamptz',
  onCreate: () => new Date(),
} as const;

export const updatedAtProperty = {
  type: 'datetime',
  columnType: 'timestamptz',
  onCreate: () => new Date(),
  onUpdate: () => new Date(),
} as const;

/** Ids are PostgreSQL bigints, handled as decimal strings (the API's integer-like ids). */
export const bigintColumn = { type: new BigIntType('string') } as const;

export const idProperty = { ...bigintColumn, primary: true, autoincrement: true } as const;
