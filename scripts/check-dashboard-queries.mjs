// Validates every PromQL query of a Grafana dashboard (default deploy/grafana/formward.json):
// each panel target's `expr` and each Prometheus templating query becomes a recording rule
// `dashboard:panel_<n>` in a temporary rules file that `promtool check rules` parses, and every
// metric name a query reads must be one of the metrics contract (docs/monitoring.md) or a
// Temporal SDK `temporal_*` one, so a typo fails here rather than as an empty panel.
//   node scripts/check-dashboard-queries.mjs [dashboard.json]
// Exits 1 naming the panel of each bad query. PROMTOOL overrides the promtool binary.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** Metric names of the contract (decisions.md section 16, /metrics of serve and worker). */
const COUNTERS = [
  'formward_submissions_total',
  'formward_deliveries_total',
  'formward_plugins_disabled_total',
];
const HISTOGRAMS = [
  'formward_http_request_duration_seconds',
  'formward_delivery_attempt_duration_seconds',
  'formward_submission_delivery_seconds',
];
const GAUGES = [
  'formward_workflow_starts_waiting',
  'formward_workflow_start_lag_seconds',
  'formward_admission_window_in_use',
  'formward_admission_window_size',
  'formward_db_pool_connections',
  'formward_database_up',
  'formward_temporal_up',
];
const KNOWN_METRICS = new Set([
  ...COUNTERS,
  ...GAUGES,
  ...HISTOGRAMS.flatMap((name) => ['_bucket', '_sum', '_count'].map((suffix) => name + suffix)),
]);
const SDK_PREFIX = 'temporal_';

// Grafana's built-in intervals get a fixed duration; dashboard variables a placeholder that
// stays valid inside label matchers (`job=~"$job"`).
const GRAFANA_INTERVALS = { __rate_interval: '5m', __interval: '1m', __range: '1h' };
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'atan2']);

/** Replaces Grafana's `$var`, `${var}` and `${var:format}` with something PromQL accepts. */
export function substituteVariables(expr) {
  return expr.replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (_, braced, bare) => {
    const name = braced ?? bare;
    return GRAFANA_INTERVALS[name] ?? 'grafana_variable';
  });
}

/** The PromQL inside a templating query, or undefined for one that has none. */
function templatingPromQL(query) {
  const text = (typeof query === 'string' ? query : (query?.query ?? '')).trim();
  if (text === '') return undefined;
  const labelValues = /^label_values\((.*),\s*\w+\s*\)$/s.exec(text);
  if (labelValues) return labelValues[1];
  if (/^label_values\(\s*\w+\s*\)$/.test(text)) return undefined; // a label name only
  if (/^(label_names|metrics)\(/.test(text)) return undefined;
  const queryResult = /^query_result\((.*)\)$/s.exec(text);
  return queryResult ? queryResult[1] : text;
}

/** Every PromQL query of the dashboard with the title of the panel (or variable) it is in. */
export function dashboardQueries(dashboard) {
  const queries = [];
  const visit = (panels) => {
    for (const panel of panels ?? []) {
      for (const target of panel.targets ?? []) {
        if (typeof target.expr === 'string' && target.expr.trim() !== '')
          queries.push({ title: panel.title ?? `panel ${panel.id}`, expr: target.expr });
      }
      visit(panel.panels);
    }
  };
  visit(dashboard.panels);
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const expr = templatingPromQL(variable.query);
    if (expr) queries.push({ title: `variable $${variable.name}`, expr });
  }
  return queries;
}

/** The metric names a query reads (selectors, not functions, labels or keywords). */
export function metricNames(expr) {
  const stripped = substituteVariables(expr)
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set();
  for (const match of stripped.matchAll(/(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const rest = stripped.slice(match.index + match[0].length);
    if (/^\s*\(/.test(rest) || KEYWORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}

function promtoolCheck(promtool, queries, dir) {
  const file = path.join(dir, 'dashboard-rules.yml');
  const rules = queries.map(
    ({ expr }, n) =>
      `      - record: dashboard:panel_${n}\n        expr: ${JSON.stringify(substituteVariables(expr))}\n`,
  );
  fs.writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('')}`);
  const result = spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' });
  if (result.error) throw new Error(`cannot run ${promtool}: ${result.error.message}`);
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

/** Problems of the dashboard at `file` (empty when every query is valid and known). */
export function checkDashboard(file, promtool = process.env.PROMTOOL || 'promtool') {
  const queries = dashboardQueries(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (queries.length === 0) return [`${file}: no PromQL query found`];
  const problems = [];
  for (const { title, expr } of queries) {
    for (const name of metricNames(expr)) {
      if (!KNOWN_METRICS.has(name) && !name.startsWith(SDK_PREFIX))
        problems.push(`"${title}": unknown metric ${name} (not in the metrics contract): ${expr}`);
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-dashboard-'));
  try {
    const all = promtoolCheck(promtool, queries, dir);
    if (!all.ok) {
      // promtool names the rule (`dashboard:panel_<n>`) of each expression it refuses; the
      // rules it does not name are checked one at a time, to name every bad query's panel.
      const named = [...all.output.matchAll(/"dashboard:panel_(\d+)"/g)].map((m) => Number(m[1]));
      const suspects = named.length > 0 ? [...new Set(named)].map((n) => queries[n]) : queries;
      for (const query of suspects) {
        const single = promtoolCheck(promtool, [query], dir);
        if (!single.ok) problems.push(`"${query.title}": ${query.expr}\n${single.output}`);
      }
      if (problems.length === 0) problems.push('promtool refused the rules file of all queries');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const file = process.argv[2] ?? 'deploy/grafana/formward.json';
  try {
    const problems = checkDashboard(file);
    if (problems.length > 0) {
      console.error(`${file}: ${problems.length} bad quer${problems.length === 1 ? 'y' : 'ies'}`);
      for (const problem of problems) console.error(`- ${problem}`);
      process.exit(1);
    }
    const count = dashboardQueries(JSON.parse(fs.readFileSync(file, 'utf8'))).length;
    console.log(`${file}: ${count} PromQL queries valid, metric names known`);
  } catch (error) {
    console.error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
