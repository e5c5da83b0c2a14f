import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { eventually } from './eventually';

// A real Prometheus (the Debian `prometheus` package) scraping the given targets every second.

export type RunningPrometheus = {
  url: string;
  /** The value of an instant query summed over its series (0 when there is none). */
  query(expr: string): Promise<number>;
  /** The names of the alerts firing now. */
  firingAlerts(): Promise<string[]>;
  stop(): Promise<void>;
};

/** Starts Prometheus with one static target per job, and `rules` (a file's text) if given. */
export async function startPrometheus(options: {
  jobs: Record<string, string>;
  rules?: string;
}): Promise<RunningPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-prometheus-'));
  if (options.rules) fs.writeFileSync(path.join(dir, 'alerts.yml'), options.rules);
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    ...(options.rules ? ['rule_files:', '  - alerts.yml'] : []),
    'scrape_configs:',
    ...Object.entries(options.jobs).flatMap(([job, target]) => [
      `  - job_name: ${job}`,
      '    scrape_interval: 1s',
      `    static_configs: [{ targets: ['${target}'] }]`,
    ]),
    '',
  ];
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), config.join('\n'));
  const port = await freePort('127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await eventually(() => fetch(`${url}/-/ready`).then((res) => res.ok), {
    what: `prometheus ready (log: ${log.slice(-500)})`,
  });
  return {
    url,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.json()) as {
        status: string;
        data: { result: Array<{ value: [number, string] }> };
      };
      expect(body.status).toBe('success');
      return body.data.result.reduce((sum, series) => sum + Number(series.value[1]), 0);
    },
    async firingAlerts() {
      const res = await fetch(`${url}/api/v1/alerts`);
      const body = (await res.json()) as {
        data: { alerts: Array<{ labels: { alertname: string }; state: string }> };
      };
      return body.data.alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
