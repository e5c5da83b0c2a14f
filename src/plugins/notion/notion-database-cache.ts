import type { NotionDatabase } from './notion-database';

/** How long a worker trusts a database's properties it read (a renamed property shows soon). */
export const NOTION_DATABASE_TTL_MS = 60_000;
const MAX_ENTRIES = 1_000;

/**
 * The databases this worker read lately, by plugin: one `GET /v1/databases/{id}` a minute per
 * plugin rather than one a submission (Notion allows about 3 requests a second).
 */
export class NotionDatabaseCache {
  private readonly entries = new Map<string, { database: NotionDatabase; until: number }>();

  constructor(private readonly now = () => Date.now()) {}

  get(pluginId: string, databaseId: string): NotionDatabase | null {
    const entry = this.entries.get(pluginId);
    if (!entry || entry.until <= this.now() || entry.database.id !== databaseId) return null;
    return entry.database;
  }

  set(pluginId: string, database: NotionDatabase): void {
    this.entries.delete(pluginId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(pluginId, { database, until: this.now() + NOTION_DATABASE_TTL_MS });
  }

  forget(pluginId: string): void {
    this.entries.delete(pluginId);
  }
}
