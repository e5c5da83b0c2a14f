import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';

export type Baseline = { url: string; close(): Promise<void> };

/** Creates bench_baseline in Formward's database and starts the baseline server (a worker thread). */
export async function startBaseline(databaseUrl: string): Promise<Baseline> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      'create table if not exists bench_baseline (id bigserial, payload jsonb, created_at timestamptz default now())',
    );
  } finally {
    await client.end();
  }

  const worker = new Worker(path.join(__dirname, 'baseline-server.js'), {
    workerData: { databaseUrl },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`baseline server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/baseline`,
    async close() {
      worker.postMessage('close');
      const timer = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
