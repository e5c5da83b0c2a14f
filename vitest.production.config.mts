import { defineConfig } from 'vitest/config';

// `npm run test:production`: the production topology (test/production/) brings up its own
// PostgreSQL, Temporal server on PostgreSQL and serve/worker processes; nothing is shared
// with `npm test`'s global setup, and one file runs at a time.
export default defineConfig({
  test: {
    include: ['test/production/**/*.int.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default'],
  },
});
