import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus';

// Issue 23's "done means": a real Prometheus (the Debian `prometheus` package) scrapes a real
// stack every second and evaluates the shipped alert rules; submissions and deliveries move
// the counters, and deliveries to a dead receiver fire FormwardDeliveryFailureRatio.

const RULES = path.resolve(__dirname, '../../deploy/prometheus/alerts.yml');

// Retries after 1 s, 2 s, 4 s: a delivery to a dead receiver fails for good within seconds.
const t = useTestStack({ worker: true, env: { ...FAST_DELIVERY_ENV, METRICS_PORT: '0' } });

let prometheus: RunningPrometheus;
let receiver: HttpsReceiver;

beforeAll(async () => {
  // The shipped rules wait minutes (`for:`) before they fire: this copy waits one second, so
  // the test sees in seconds what production sees after the durations in alerts.yml.
  const rules = fs.readFileSync(RULES, 'utf8').replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
  expect(rules).not.toBe(fs.readFileSync(RULES, 'utf8'));
  const target = new URL(t.stack.metricsUrl!).host;
  prometheus = await startPrometheus({ jobs: { 'formward-serve': target }, rules });
  receiver = await startHttpsReceiver(inject('stack').certificates);
});

afterAll(async () => {
  await prometheus?.stop();
  await receiver?.close();
});

const query = (expr: string) => prometheus.query(expr);
const firingAlerts = () => prometheus.firingAlerts();

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
