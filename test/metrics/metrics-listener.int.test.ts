import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { postJson, submitJson } from '../support/ingest-requests';

// The metrics listener (docs/metrics.md) of a real stack with a worker: its own port, only
// GET /metrics, bounded route labels, and the Temporal SDK's worker metrics in the same text.

// Fast retries (1 s, 2 s, 4 s), and a plugin disabled after one delivery that failed for good.
const t = useTestStack({
  worker: true,
  env: {
    ...FAST_DELIVERY_ENV,
    PLUGIN_DISABLE_AFTER_FAILURES: '1',
    PLUGIN_DISABLE_AFTER: '0s',
    METRICS_PORT: '0',
  },
});

let receiver: HttpsReceiver;
beforeAll(async () => {
  receiver = await startHttpsReceiver(inject('stack').certificates);
});
afterAll(async () => {
  await receiver?.close();
});

const metricsUrl = () => t.stack.metricsUrl!;

async function scrape(): Promise<string> {
  const res = await fetch(metricsUrl());
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/**
 * The value of the series `name` with exactly these labels (in any order; prom-client prints
 * the default `process` label first on some types, last on others), or 0 when absent.
 */
function valueOf(text: string, series: string): number {
  const wanted = parseSeries(series);
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(wanted.name)) continue;
    const cut = line.lastIndexOf(' ');
    const found = parseSeries(line.slice(0, cut));
    if (found.name === wanted.name && found.labels === wanted.labels)
      return Number(line.slice(cut + 1));
  }
  return 0;
}

/** `name{a="1",b="2"}` as its name and its labels sorted. */
function parseSeries(series: string): { name: string; labels: string } {
  const brace = series.indexOf('{');
  if (brace < 0) return { name: series, labels: '' };
  const labels = series.slice(brace + 1, -1).match(/\w+="(?:[^"\\]|\\.)*"/g) ?? [];
  return { name: series.slice(0, brace), labels: labels.sort().join(',') };
}

describe('the metrics listener', () => {
  it('serves GET /metrics on its own port with the process label, and nothing else', async () => {
    expect(new URL(metricsUrl()).port).not.toBe(new URL(t.stack.url).port);
    const text = await scrape();
    expect(text).toMatch(/^formward_submissions_total\{outcome="accepted",process="serve"\} \d+$/m);
    expect(text).toContain('# TYPE formward_http_request_duration_seconds histogram');
    expect(text).toMatch(/^formward_db_pool_connections\{state="used",process="serve"\} \d+$/m);
    expect(text).toMatch(/^formward_workflow_starts_waiting\{process="serve"\} 0$/m);
    expect(text).toMatch(/^formward_admission_window_size\{process="serve"\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{process="serve"\}/m);

    const origin = new URL(metricsUrl()).origin;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/metrics/x'],
      ['GET', '/healthz'],
      ['POST', '/metrics'],
    ] as const) {
      const res = await fetch(`${origin}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      await res.text();
    }
  });

  it('is not on the public listener', async () => {
    const res = await fetch(`${t.stack.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('formward_');
  });

  it('reports the database and Temporal as up', async () => {
    await eventually(
      async () => {
        const text = await scrape();
        return valueOf(text, 'formward_database_up{process="serve"}') === 1 &&
          valueOf(text, 'formward_temporal_up{process="serve"}') === 1
          ? text
          : null;
      },
      { what: 'database and Temporal up' },
    );
  });
});

describe('recorded metrics', () => {
  it('labels ingest by the declared path, never by the token, and counts the outcomes', async () => {
    const before = await scrape();
    const token = `tok${randomBytes(12).toString('hex')}`;
    const refused = await postJson(`${t.stack.url}/json/${token}`, { a: 1 });
    expect(refused.status).toBe(404);
    const form = await t.api.createForm({ name: 'Metrics form' });
    await submitJson(form, { email: 'ada@example.com' });
    const missing = await fetch(`${t.stack.url}/no/such/${token}`);
    expect(missing.status).toBe(404);
    await missing.text();

    const after = await scrape();
    expect(after).not.toContain(token);
    expect(after).not.toContain(form.endpoint_token);
    const count = (text: string, labels: string) =>
      valueOf(text, `formward_http_request_duration_seconds_count{process="serve",${labels}}`);
    expect(
      count(after, 'route="/json/{endpoint_token}",method="POST",status="404"') -
        count(before, 'route="/json/{endpoint_token}",method="POST",status="404"'),
    ).toBe(1);
    expect(
      count(after, 'route="/json/{endpoint_token}",method="POST",status="200"') -
        count(before, 'route="/json/{endpoint_token}",method="POST",status="200"'),
    ).toBe(1);
    expect(count(after, 'route="unmatched",method="GET",status="404"')).toBeGreaterThan(0);
    const outcome = (text: string, name: string) =>
      valueOf(text, `formward_submissions_total{process="serve",outcome="${name}"}`);
    expect(outcome(after, 'accepted') - outcome(before, 'accepted')).toBe(1);
    expect(outcome(after, 'rejected') - outcome(before, 'rejected')).toBe(1);
    // The one accepted submission was stored by one group-commit statement, alone in it.
    const groups = (text: string, series: string) =>
      valueOf(text, `formward_ingest_group_rows_${series}{process="serve"}`);
    expect(groups(after, 'count') - groups(before, 'count')).toBe(1);
    expect(groups(after, 'sum') - groups(before, 'sum')).toBe(1);
  });

  it('labels a dashboard page by its pattern', async () => {
    const res = await fetch(`${t.stack.url}/login`);
    await res.text();
    const series =
      'formward_http_request_duration_seconds_count{process="serve",route="/login",method="GET",status="200"}';
    expect(valueOf(await scrape(), series)).toBeGreaterThan(0);
  });

  it('counts spam the workflow marks', async () => {
    const form = await t.api.createForm({ name: 'Spam metrics form' });
    const before = valueOf(
      await scrape(),
      'formward_submissions_total{process="serve",outcome="spam"}',
    );
    // The honeypot field: stored, then marked spam by the workflow's spam step.
    await submitJson(form, { email: 'bot@example.com', _hp: 'filled' });
    await eventually(
      async () =>
        valueOf(await scrape(), 'formward_submissions_total{process="serve",outcome="spam"}') >
        before,
      { what: 'spam counted' },
    );
  });

  it("appends the Temporal SDK's worker metrics", async () => {
    await eventually(
      async () => {
        const text = await scrape();
        return /^temporal_\w+\{[^}]*process="serve"[^}]*\} /m.test(text) &&
          /^# TYPE temporal_\w+ /m.test(text)
          ? text
          : null;
      },
      { what: 'temporal_* series' },
    );
  });

  it('times attempts and counts deliveries, stored → delivered, and a disabled endpoint', async () => {
    const series = (name: string, labels: string) => `${name}{process="serve",${labels}}`;
    const delivered = series(
      'formward_deliveries_total',
      'plugin_type="webhook",outcome="delivered"',
    );
    const failed = series('formward_deliveries_total', 'plugin_type="webhook",outcome="failed"');
    const storedToDelivered = series(
      'formward_submission_delivery_seconds_count',
      'plugin_type="webhook"',
    );
    const failures = series(
      'formward_delivery_attempt_duration_seconds_count',
      'plugin_type="webhook",outcome="failure"',
    );
    const disabled = series('formward_plugins_disabled_total', 'plugin_type="webhook"');
    const before = await scrape();
    // Present from the start at 0, so Prometheus sees the first failure as an increase.
    expect(before).toMatch(
      /^formward_deliveries_total\{plugin_type="webhook",outcome="failed",process="serve"\} 0$/m,
    );

    const good = await t.api.createForm({ name: 'Delivered metrics form' });
    await t.api.addWebhook(good.id, `${receiver.url}/hook`);
    await submitJson(good, { email: 'ada@example.com' });
    const dead = await t.api.createForm({ name: 'Dead metrics form' });
    await t.api.addWebhook(dead.id, `https://127.0.0.1:${await freePort('127.0.0.1')}/hook`);
    await submitJson(dead, { email: 'grace@example.com' });

    const after = await eventually(
      async () => {
        const text = await scrape();
        return valueOf(text, failed) > valueOf(before, failed) &&
          valueOf(text, disabled) > valueOf(before, disabled)
          ? text
          : null;
      },
      { what: 'the failed delivery and the disabled plugin', timeoutMs: 40_000 },
    );
    expect(valueOf(after, delivered) - valueOf(before, delivered)).toBe(1);
    expect(valueOf(after, storedToDelivered) - valueOf(before, storedToDelivered)).toBe(1);
    expect(valueOf(after, failed) - valueOf(before, failed)).toBe(1);
    // Every attempt of the dead one: the first and three retries.
    expect(valueOf(after, failures) - valueOf(before, failures)).toBe(4);
    expect(valueOf(after, disabled) - valueOf(before, disabled)).toBe(1);
  });
});
