// The baseline: Express 5 + express.json() + one pg insert. Runs in a worker thread of the
// bench process, so that autocannon (main thread) does not share its event loop.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'pg';

const { databaseUrl } = workerData as { databaseUrl: string };
const pool = new Pool({ connectionString: databaseUrl, max: 20 });
const app = express();

app.post('/baseline', express.json(), async (req, res) => {
  const { rows } = await pool.query<{ id: string }>(
    'insert into bench_baseline (payload) values ($1) returning id',
    [req.body],
  );
  res.json({ ok: true, id: rows[0].id });
});

const server = app.listen(0, '127.0.0.1', () => {
  parentPort!.postMessage({ port: (server.address() as AddressInfo).port });
});

parentPort!.on('message', (message) => {
  if (message !== 'close') return;
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => parentPort!.close());
});
