import { describe, expect, it } from 'vitest';
import { NOTION_DATABASE_TTL_MS, NotionDatabaseCache } from './notion-database-cache';

const database = { id: 'db-1', titleProperty: 'Name', properties: [] };

describe("the worker's copy of Notion databases", () => {
  it('keeps a database for a minute per plugin, for the database the plugin names', () => {
    let now = 0;
    const cache = new NotionDatabaseCache(() => now);
    cache.set('plugin-1', database);
    expect(cache.get('plugin-1', 'db-1')).toBe(database);
    expect(cache.get('plugin-2', 'db-1')).toBeNull();
    expect(cache.get('plugin-1', 'db-2')).toBeNull();
    now = NOTION_DATABASE_TTL_MS;
    expect(cache.get('plugin-1', 'db-1')).toBeNull();
  });

  it('forgets a database after a refused page', () => {
    const cache = new NotionDatabaseCache();
    cache.set('plugin-1', database);
    cache.forget('plugin-1');
    expect(cache.get('plugin-1', 'db-1')).toBeNull();
  });
});
