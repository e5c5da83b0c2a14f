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
