import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * scripts/check-dashboard-queries.mjs on the dashboard of deploy/grafana and on broken copies
 * of it. It needs promtool (Debian's `prometheus` package): skipped without it on a developer
 * machine, required in CI (.ci/run installs it).
 */
const root = path.resolve(__dirname, '../..');
const script = path.join(root, 'scripts/check-dashboard-queries.mjs');
const dashboardFile = path.join(root, 'deploy/grafana/formward.json');
const promtool = process.env.PROMTOOL || 'promtool';
const promtoolFound = !spawnSync(promtool, ['--version']).error;
const required = Boolean(process.env.CI);

if (!promtoolFound && !required)
  console.warn(
    'test/metrics/dashboard-queries.test.ts skipped: promtool is not installed (apt-get install prometheus)',
  );

interface Target {
  expr?: string;
}
interface Panel {
  title: string;
  targets?: Target[];
}
interface Dashboard {
  panels: Panel[];
  templating: { list: { name: string; query: { query: string } | string }[] };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-dashboard-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function loadDashboard(): Dashboard {
  return JSON.parse(fs.readFileSync(dashboardFile, 'utf8')) as Dashboard;
}

function panel(dashboard: Dashboard, title: string): Panel {
  const found = dashboard.panels.find((candidate) => candidate.title === title);
  if (!found?.targets?.[0]?.expr) throw new Error(`no panel "${title}" with a query`);
  return found;
}

function check(file: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [script, file], { encoding: 'utf8', cwd: root });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function checkCopy(change: (dashboard: Dashboard) => void): {
  status: number | null;
  output: string;
} {
  const dashboard = loadDashboard();
  change(dashboard);
  const file = path.join(tmp, `dashboard-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(dashboard));
  return check(file);
}

describe.skipIf(!promtoolFound && !required)('dashboard queries (promtool)', () => {
  it('has promtool', () => {
    expect(promtoolFound, `${promtool} is required in CI (Debian package prometheus)`).toBe(true);
  });

  it('accepts every query of deploy/grafana/formward.json', () => {
    const { status, output } = check(dashboardFile);
    expect(output).toMatch(/\d+ PromQL queries valid, metric names known/);
    expect(status).toBe(0);
  });

  it('names the panel of a query promtool cannot parse', () => {
    const { status, output } = checkCopy((dashboard) => {
      panel(dashboard, 'Delivery failure ratio').targets![0]!.expr =
        'sum(rate(formward_deliveries_total{outcome="failed"}[5m]) / sum(rate(formward_deliveries_total[5m]))';
    });
    expect(status).toBe(1);
    expect(output).toContain('"Delivery failure ratio"');
    expect(output).toMatch(/parse error/);
    expect(output).not.toContain('"Submissions by outcome"');
  });

  it('refuses a query of the wrong type (a counter without a range in rate)', () => {
    const { status, output } = checkCopy((dashboard) => {
      panel(dashboard, 'Submissions by outcome').targets![0]!.expr =
        'sum by (outcome) (rate(formward_submissions_total))';
    });
    expect(status).toBe(1);
    expect(output).toContain('"Submissions by outcome"');
  });

  it('refuses a metric name outside the contract, naming it and its panel', () => {
    const { status, output } = checkCopy((dashboard) => {
      const target = panel(dashboard, 'Deliveries by plugin type and outcome').targets![0]!;
      target.expr = target.expr!.replace('formward_deliveries_total', 'formward_delivery_total');
    });
    expect(status).toBe(1);
    expect(output).toContain(
      '"Deliveries by plugin type and outcome": unknown metric formward_delivery_total',
    );
  });

  it('checks the PromQL of templating queries', () => {
    const { status, output } = checkCopy((dashboard) => {
      const variable = dashboard.templating.list.find((candidate) => candidate.name === 'process')!;
      variable.query = { query: 'label_values(formward_database_up{job=~"$job", process, job)' };
    });
    expect(status).toBe(1);
    expect(output).toContain('"variable $process"');
  });
});

/** A panel's query as Grafana sends it with job "formward" and every process selected. */
function panelQuery(title: string, refId = 'A'): string {
  const target = (panel(loadDashboard(), title).targets ?? []).find(
    (candidate) => (candidate as Target & { refId?: string }).refId === refId,
  );
  if (!target?.expr) throw new Error(`no query ${refId} in "${title}"`);
  return target.expr
    .replaceAll('$__rate_interval', '5m')
    .replaceAll('$job', 'formward')
    .replaceAll('$process', '.*');
}

const series = (labels: string, values: string) => ({ series: labels, values });
const expect1 = (expr: string, samples: { labels: string; value: number }[]) => ({
  expr,
  eval_time: '10m',
  exp_samples: samples,
});

describe.skipIf(!promtoolFound && !required)(
  'dashboard queries on scraped series (promtool test rules)',
  () => {
    it('compute what their panels say, within the selected job', () => {
      const serve = 'job="formward", process="serve", instance="serve-1:9464"';
      const worker = 'job="formward", process="worker", instance="worker-1:9464"';
      const route = 'route="/f/{endpoint_token}", method="POST", status="303"';
      const test = {
        rule_files: [],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: [
              series(`formward_submissions_total{${serve}, outcome="accepted"}`, '0+60x10'),
              series(`formward_submissions_total{${worker}, outcome="spam"}`, '0+30x10'),
              // Another job's series: outside the dashboard's $job, never counted.
              series(
                `formward_submissions_total{job="other", process="serve", outcome="accepted"}`,
                '0+600x10',
              ),
              series(
                `formward_deliveries_total{${worker}, plugin_type="webhook", outcome="delivered"}`,
                '0+3x10',
              ),
              series(
                `formward_deliveries_total{${worker}, plugin_type="webhook", outcome="failed"}`,
                '0+1x10',
              ),
              series(
                `formward_http_request_duration_seconds_bucket{${serve}, ${route}, le="0.1"}`,
                '0+60x10',
              ),
              series(
                `formward_http_request_duration_seconds_bucket{${serve}, ${route}, le="1"}`,
                '0+60x10',
              ),
              series(
                `formward_http_request_duration_seconds_bucket{${serve}, ${route}, le="+Inf"}`,
                '0+60x10',
              ),
              // Both processes read the same table: 7 waiting, not 14.
              series(`formward_workflow_starts_waiting{${serve}}`, '7x10'),
              series(`formward_workflow_starts_waiting{${worker}}`, '7x10'),
              series(`formward_database_up{${serve}}`, '1x10'),
              series(`formward_database_up{${worker}}`, '0x10'),
            ],
            promql_expr_test: [
              expect1(panelQuery('Submissions by outcome'), [
                { labels: '{outcome="accepted"}', value: 1 },
                { labels: '{outcome="spam"}', value: 0.5 },
              ]),
              expect1(panelQuery('Delivery failure ratio'), [{ labels: '{}', value: 0.25 }]),
              expect1(panelQuery('Delivery failure ratio', 'B'), [
                { labels: '{plugin_type="webhook"}', value: 0.25 },
              ]),
              expect1(panelQuery('HTTP latency by route (p50 / p95 / p99)'), [
                { labels: '{route="/f/{endpoint_token}"}', value: 0.05 },
              ]),
              expect1(panelQuery('Waiting workflow starts'), [{ labels: '{}', value: 7 }]),
              expect1(panelQuery('PostgreSQL reachable'), [{ labels: '{}', value: 0 }]),
              expect1(panelQuery('Processes reporting'), [
                { labels: '{process="serve"}', value: 1 },
                { labels: '{process="worker"}', value: 1 },
              ]),
            ],
          },
        ],
      };
      const file = path.join(tmp, 'dashboard-semantics.test.yml');
      fs.writeFileSync(file, JSON.stringify(test, null, 2)); // JSON is YAML
      const result = spawnSync(promtool, ['test', 'rules', file], { encoding: 'utf8' });
      expect(`${result.stdout}${result.stderr}`).toContain('SUCCESS');
      expect(result.status).toBe(0);
    });
  },
);

describe('dashboard coverage', () => {
  it('reads every metric of the contract and the Temporal SDK worker metrics', () => {
    const dashboard = loadDashboard();
    const queries = dashboard.panels
      .flatMap((candidate) => candidate.targets ?? [])
      .map((target) => target.expr ?? '')
      .join('\n');
    for (const name of [
      'formward_submissions_total',
      'formward_http_request_duration_seconds_bucket',
      'formward_deliveries_total',
      'formward_delivery_attempt_duration_seconds_bucket',
      'formward_submission_delivery_seconds_bucket',
      'formward_workflow_starts_waiting',
      'formward_workflow_start_lag_seconds',
      'formward_admission_window_in_use',
      'formward_admission_window_size',
      'formward_db_pool_connections',
      'formward_plugins_disabled_total',
      'formward_database_up',
      'formward_temporal_up',
      'temporal_worker_task_slots_used',
      'temporal_workflow_task_schedule_to_start_latency_bucket',
      'temporal_activity_schedule_to_start_latency_bucket',
    ])
      expect(queries).toContain(name);
    const variables = dashboard.templating.list.map((variable) => variable.name);
    expect(variables).toEqual(expect.arrayContaining(['datasource', 'job', 'process']));
  });
});
