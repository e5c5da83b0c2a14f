import { configDefaults, defineConfig } from 'vitest/config';

// One real PostgreSQL and one real Temporal dev server for the whole run (test/global-setup.ts);
// every test file gets its own database and task queue.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'workflows/**/*.test.ts', 'activities/**/*.test.ts'],
    // Its own topology and runner: `npm run test:production` (vitest.production.config.ts).
    exclude: [...configDefaults.exclude, 'test/production/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
