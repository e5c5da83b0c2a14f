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

export const idProperty = { type: 'bigint', primary: true, autoincrement: true } as const;
