import { p } from '@mikro-orm/core';

/** Ids are PostgreSQL bigints, handled as decimal strings (the API's integer-like ids). */
export const bigintColumn = () => p.bigint('string');

export const idColumn = () => bigintColumn().primary().autoincrement();

/** Every table's creation and update times, as timestamptz set by the ORM. */
export const timestampColumn = () => p.type('datetime').columnType('timestamptz');

export const createdAtColumn = () => timestampColumn().onCreate(() => new Date());

export const updatedAtColumn = () =>
  timestampColumn()
    .onCreate(() => new Date())
    .onUpdate(() => new Date());
