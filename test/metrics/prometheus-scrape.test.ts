import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';

// Issue 23's "done means": a real Prometheus (the Debian `prometheus` package) scrapes a real
// stack every second and evaluates the shipped alert rules; submissions and deliveries move
// the counters, and deliveries to a dead receiver fire FormwardDeliveryFailureRatio.

const RULES = path.resolve(__dirname, '../../deploy/prometheus/alerts.yml');

// Retries after 1 s, 2 s, 4 s: a delivery to a dead receiver fails for good within seconds.
const t = useTestStack({ worker: true, env: { ...FAST_DELIVERY_ENV, METRICS_PORT: '0' } });

let dir: string;
let prometheus: ChildProcess | null = null;
let prometheusUrl: string;
let receiver: HttpsReceiver;
let log = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-prometheus-'));
  // The shipped rules wait minutes (`for:`) before they fire: this copy waits one second, so
  // the test sees in seconds what production sees after the durations in alerts.yml.
  const rules = fs.readFileSync(RULES, 'utf8').replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
  expect(rules).not.toBe(fs.readFileSync(RULES, 'utf8'));
  fs.writeFileSync(path.join(dir, 'alerts.yml'), rules);
  const target = new URL(t.stack.metricsUrl!).host;
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      '  - alerts.yml',
      'scrape_configs:',
      '  - job_name: formward-serve',
      '    scrape_interval: 1s',
      `    static_configs: [{ targets: ['${target}'] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort('127.0.0.1');
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  prometheus.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await eventually(() => fetch(`${prometheusUrl}/-/ready`).then((res) => res.ok), {
    what: `prometheus ready (log: ${log.slice(-500)})`,
  });
  receiver = await startHttpsReceiver(inject('stack').certificates);
});

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The value of an instant query summed over its series (0 when there is none). */
async function query(expr: string): Promise<number> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as {
    status: string;
    data: { result: Array<{ value: [number, string] }> };
  };
  expect(body.status).toBe('success');
  return body.data.result.reduce((sum, series) => sum + Number(series.value[1]), 0);
}

async function firingAlerts(): Promise<string[]> {
  const res = await fetch(`${prometheusUrl}/api/v1/alerts`);
  const body = (await res.json()) as {
    data: { alerts: Array<{ labels: { alertname: string }; state: string }> };
  };
  return body.data.alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname);
}

describe('a real Prometheus scraping the stack', () => {
  it('scrapes the target and sees submissions and deliveries', { timeout: 90_000 }, async () => {
    await eventually(() => query('up{job="formward-serve"}').then((up) => up === 1), {
      what: 'the target up',
    });
    const form = await t.api.createForm({ name: 'Scraped form' });
    await t.api.addWebhook(form.id, `${receiver.url}/hook`);
    await submitJson(form, { email: 'ada@example.com' });
    await receiver.waitFor(1);
    await eventually(
      async () =>
        (await query('formward_submissions_total{outcome="accepted"}')) >= 1 &&
        (await query('formward_deliveries_total{outcome="delivered",plugin_type="webhook"}')) >= 1,
      { what: 'accepted and delivered counted by Prometheus', timeoutMs: 30_000 },
    );
    // The Temporal SDK's series come through the same target.
    expect(await query('count({__name__=~"temporal_.+",job="formward-serve"})')).toBeGreaterThan(0);
    expect(await firingAlerts()).not.toContain('FormwardDeliveryFailureRatio');
  });

  it(
    'fires FormwardDeliveryFailureRatio when deliveries fail for good',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Dead receiver form' });
      // Nothing listens there: every attempt is refused, and the retries run out.
      const dead = await freePort('127.0.0.1');
      await t.api.addWebhook(form.id, `https://127.0.0.1:${dead}/hook`);
      await submitJson(form, { email: 'ada@example.com' });
      await submitJson(form, { email: 'grace@example.com' });
      await eventually(
        () => query('formward_deliveries_total{outcome="failed"}').then((n) => n >= 2),
        { what: 'failed deliveries counted by Prometheus', timeoutMs: 60_000 },
      );
      await eventually(
        () => firingAlerts().then((names) => names.includes('FormwardDeliveryFailureRatio')),
        { what: 'FormwardDeliveryFailureRatio firing', timeoutMs: 30_000 },
      );
    },
  );
});
