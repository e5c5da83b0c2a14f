import { configDefaults, defineConfig } from 'vitest/config';

/*
 * Two projects, told apart by a file's name (CONTRIBUTING.md, "Tests"):
 * - `unit`: `*.test.ts`, pure tests: no PostgreSQL, no Temporal, no Formward server (a file
 *   may open a throwaway socket or run a local tool such as helm or promtool). No global setup:
 *   `inject('stack')` is undefined there, the stack helpers refuse to run, and eslint forbids
 *   importing them in such a file. `npm run test:unit`.
 * - `integration`: `*.int.test.ts`. One real PostgreSQL and one real Temporal dev server for
 *   the whole run (test/global-setup.ts); every test file gets its own database and task
 *   queue. `npm run test:integration`.
 * Tests sit by area in test/<area>/ (or beside the code); cross-area suites (browser,
 * production, durability) in test/. `npm test` (scripts/run-tests.mjs) runs the unit project,
 * then the integration project, and prints the wall time of each.
 */
const ROOTS = ['test', 'src', 'workflows', 'activities'];
const UNIT_TESTS = ROOTS.map((root) => `${root}/**/*.test.ts`);
const INTEGRATION_TESTS = ROOTS.map((root) => `${root}/**/*.int.test.ts`);
// Its own topology and runner: `npm run test:production` (vitest.production.config.mts).
const EXCLUDED = [...configDefaults.exclude, 'test/production/**'];

/** A worker count from the environment variable `name`, or `fallback` when it is not set. */
function workersFrom(name: string, fallback: number | string): number | string {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+%?$/.test(value) || value === '0' || value === '0%')
    throw new Error(`${name} must be a worker count or a percentage of the cores, not "${value}"`);
  return value.endsWith('%') ? value : Number(value);
}

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          exclude: [...EXCLUDED, '**/*.int.test.ts'],
          // Pure tests: every core by default.
          maxWorkers: workersFrom('UNIT_TEST_WORKERS', '100%'),
          // A worker runs its files one after another on the modules it already loaded:
          // re-importing src/ for each file was most of the unit run's time. So a unit file
          // leaves no global state changed (environment variables, module settings).
          isolate: false,
          // Projects with different worker counts run one after the other.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION_TESTS,
          exclude: EXCLUDED,
          globalSetup: ['test/global-setup.ts'],
          // Each worker runs a server, a Temporal worker and their database: two by default.
          maxWorkers: workersFrom('TEST_WORKERS', 2),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
