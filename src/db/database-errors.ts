import { DriverException } from '@mikro-orm/core';

// Errors PostgreSQL answers, as the layers above need to see them.

/**
 * True when PostgreSQL refused a row because the search index of its payload would pass the
 * tsvector size limit (1 MiB of distinct words and positions): the submitter's data is too
 * large to index, not a fault of ours.
 */
export function isSearchIndexTooLarge(error: unknown): boolean {
  return (
    error instanceof DriverException &&
    (error as { code?: string }).code === '54000' &&
    /tsvector/.test(error.message)
  );
}

/** Fields of a PostgreSQL error that name where it happened, never the values involved. */
const SAFE_FIELDS = ['code', 'severity', 'routine', 'table', 'column', 'constraint'] as const;

/**
 * A driver error fit for the log: MikroORM's DriverException carries every field of the
 * driver's error, and `detail` (or `where`, `internalQuery`) may quote a submission's values.
 * This keeps PostgreSQL's own message, the fields above and the call stack. Other errors pass
 * unchanged.
 */
export function withoutStatementValues(error: unknown): unknown {
  if (!(error instanceof DriverException)) return error;
  const message = error.message;
  const safe = new Error(message);
  safe.name = error.name;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  safe.stack = [`${error.name}: ${message}`, ...frames].join('\n');
  for (const field of SAFE_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (value !== undefined) Object.assign(safe, { [field]: value });
  }
  return safe;
}
