import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityName } from '@mikro-orm/core';
import { entities } from '../../src/db/entities';
import { createOrm, migrate, type Orm } from '../../src/db/orm';
import { createTestDatabase } from '../support/test-stack';

// The migrations are the schema (docs/database.md): every column an entity maps exists in its
// table after all migrations, with the same nullability.
describe('the entities', () => {
  let orm: Orm;

  beforeAll(async () => {
    orm = await createOrm(await createTestDatabase(), { poolMax: 2 });
    await migrate(orm);
  });
  afterAll(() => orm?.close());

  it('map columns the migrations create, nullable where the entity says so', async () => {
    const rows = await orm.em
      .getConnection()
      .execute<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }[]>(
        `select table_name, column_name, is_nullable from information_schema.columns
         where table_schema = 'public'`,
      );
    const columns = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
    const metadata = orm.getMetadata();
    for (const entity of entities) {
      const meta = metadata.find(entity as EntityName)!;
      for (const property of Object.values(meta.properties)) {
        const name = `${meta.tableName}.${property.fieldNames[0]}`;
        const column = columns.get(name);
        expect(column, name).toBeDefined();
        expect(column!.is_nullable === 'YES', name).toBe(property.nullable === true);
      }
    }
  });
});
