import { configDefaults, defineConfig } from 'vitest/config';

/*
 * Two projects (CONTRIBUTING.md, "Tests"):
 * - `unit`: the files listed below, which need no server: no PostgreSQL, no Temporal, no
 *   fixture or test stack, no helper that starts a server. `npm run test:unit`.
 * - `integration`: every other test file. One real PostgreSQL and one real Temporal dev server
 *   for the whole run (test/global-setup.ts); every test file gets its own database and task
 *   queue. `npm run test:integration`.
 * `npm test` runs both, the unit project first. A new file is an integration test until it is
 * listed here; a listed file that reaches for the stack fails (`inject('stack')` is undefined).
 */
const UNIT_TESTS = [
  'test/config/byte-size.test.ts',
  'test/config/embedded-postgres-settings.test.ts',
  'test/config/file-storage.test.ts',
  'test/config/form-pages-target.test.ts',
  'test/config/metrics-config.test.ts',
  'test/config/spam-retention.test.ts',
  'test/config/temporal-dev-server.test.ts',
  'test/db/connection-errors.test.ts',
  // Renders the Helm chart with the cached helm: no server.
  'test/deploy/helm-chart.test.ts',
  // Reads docker-compose.yml: no server.
  'test/deploy/compose-caddy.test.ts',
  'test/domain/address-policy.test.ts',
  'test/domain/app-secret.test.ts',
  'test/domain/captcha-settings.test.ts',
  'test/domain/autoresponse-text.test.ts',
  'test/domain/chat-messages.test.ts',
  'test/domain/dev-mailbox.test.ts',
  'test/domain/own-origin.test.ts',
  'test/domain/passwords.test.ts',
  'test/domain/plugin-configs.test.ts',
  'test/domain/prepare-submission.test.ts',
  'test/domain/semaphore-failures.test.ts',
  'test/domain/semaphore.test.ts',
  'test/domain/signing-secret.test.ts',
  'test/domain/spam-rules.test.ts',
  'test/domain/validate-fields.test.ts',
  'test/domain/form-json-schema.test.ts',
  'test/domain/submission-email.test.ts',
  'test/http/expect-answer.test.ts',
  'test/http/next-path.test.ts',
  'test/http/openapi-document.test.ts',
  'test/http/route-answers.test.ts',
  'test/http/test-deliveries-view.test.ts',
  'test/ingest/rate-limit-key.test.ts',
  'test/mail/mime-reader.test.ts',
  'test/metrics/dashboard-queries.test.ts',
  // Runs promtool on deploy/prometheus: no server of ours.
  'test/metrics/promtool.test.ts',
  'test/temporal/workflow-code.test.ts',
  // Worker.runReplayHistories replays the recorded histories in process: no server.
  'test/temporal/workflow-replay.test.ts',
  'test/tracing/span-redaction.test.ts',
  'workflows/first-attempt.test.ts',
  // Pure tests by where they live: everything under test/unit/.
  'test/unit/**/*.test.ts',
];

const ALL_TESTS = ['test/**/*.test.ts', 'workflows/**/*.test.ts', 'activities/**/*.test.ts'];
// Its own topology and runner: `npm run test:production` (vitest.production.config.ts).
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
          exclude: EXCLUDED,
          // Pure tests: every core by default.
          maxWorkers: workersFrom('UNIT_TEST_WORKERS', '100%'),
          // Projects with different worker counts run one after the other.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL_TESTS,
          exclude: [...EXCLUDED, ...UNIT_TESTS],
          globalSetup: ['test/global-setup.ts'],
          // Each worker runs a server, a Temporal worker and their database: two by default.
          maxWorkers: workersFrom('TEST_WORKERS', 2),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
