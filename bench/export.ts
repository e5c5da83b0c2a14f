// `npm run bench:export`: exports 100,000 submissions of one form as CSV and as JSON through
// the dashboard's export code (keyset batches from PostgreSQL, csv-stringify, streams with
// backpressure) into a discarding sink, and reports the peak RSS and heap growth above the
// baseline measured just before. Not a timed test: it fails only when the heap grows past
// EXPORT_HEAP_BOUND_MB (default 64), far below the ~100 MB the rows would take if collected.
// Environment: EXPORT_ROWS (default 100000), EXPORT_HEAP_BOUND_MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createOrm, migrate } from '../src/db/orm';
import { runStatement } from '../src/db/sql/execute';
import { createAccount } from '../src/domain/accounts/accounts';
import { insertForm } from '../src/domain/forms/forms';
import { exportFieldNames, exportSubmissions } from '../src/domain/submissions/submission-export';
import type { SubmissionFilter } from '../src/domain/submissions/submission-queries';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { csvStream, jsonStream } from '../src/http/submissions/export-format';
import { round } from './util';

const ROWS = Number(process.env.EXPORT_ROWS ?? 100_000);
const HEAP_BOUND_MB = Number(process.env.EXPORT_HEAP_BOUND_MB ?? 64);
const MB = 1024 * 1024;
const say = (line: string) => console.error(`[bench:export] ${line}`);

/** A sink that counts and drops what it is given, a little at a time (like a slow client). */
function countingSink(): { sink: Writable; bytes: () => number } {
  let bytes = 0;
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer | string, _encoding, done) {
      bytes += Buffer.byteLength(chunk);
      setImmediate(done);
    },
  });
  return { sink, bytes: () => bytes };
}

/** Peak RSS and heap while `run` runs, sampled every 10 ms, above the values at the start. */
async function measured(run: () => Promise<number>) {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 10);
  const t0 = Date.now();
  const bytes = await run().finally(() => clearInterval(timer));
  return {
    outputMB: round(bytes / MB),
    seconds: round((Date.now() - t0) / 1000),
    baselineRssMB: round(start.rss / MB),
    peakRssMB: round(peakRss / MB),
    rssGrowthMB: round((peakRss - start.rss) / MB),
    baselineHeapMB: round(start.heapUsed / MB),
    peakHeapMB: round(peakHeap / MB),
    heapGrowthMB: round((peakHeap - start.heapUsed) / MB),
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-bench-export-'));
  fs.chmodSync(dataDir, 0o755);
  const postgres = await startEmbeddedPostgres({ dataDir });
  const orm = await createOrm(postgres.url, { poolMax: 4 });
  try {
    await migrate(orm);
    const em = orm.em.fork();
    const { account } = await createAccount(em, {
      email: 'bench@example.com',
      password: 'bench export password',
    });
    const form = await insertForm(em, account.id, { name: 'Export bench' }, 0);
    say(`inserting ${ROWS} submissions`);
    // ~1 KB of fields each, 20 optional field names spread over the rows (27 columns).
    await runStatement(
      em,
      `insert into submissions (form_id, account_id, payload_json, special_normalized,
              source_ip, user_agent, referrer, created_at, spam_checked_at)
       select ?, ?, jsonb_build_object(
                'name', 'Sender ' || i, 'email', 'sender' || i || '@example.com',
                'message', repeat('a long message, ', 50) || i,
                'phone', '+1 555 ' || i, 'extra_' || (i % 20), '=formula ' || i),
              jsonb_build_object('email', 'sender' || i || '@example.com'),
              '192.0.2.1', 'bench agent', 'https://example.com/contact',
              now() - i * interval '1 second', now()
         from generate_series(1, ?) as i`,
      [form.id, account.id, ROWS],
    );
    // Statistics as autovacuum would leave them. Without them the first export (CSV) ran
    // before autoanalyze: each keyset batch was planned as a bitmap AND of the form and
    // account indexes plus a sort of every remaining row (130 ms a batch instead of 1 ms),
    // and CSV measured 77 s against JSON's 14 s though the formats cost about the same.
    await runStatement(em, 'analyze submissions');
    const filter: SubmissionFilter = {
      accountId: account.id,
      formId: form.id,
      spam: false,
      range: 'all',
    };
    const exportWith = async (streams: (Readable | NodeJS.ReadWriteStream)[]) => {
      const { sink, bytes } = countingSink();
      await pipeline([...(streams as [Readable]), sink]);
      return bytes();
    };
    const csv = await measured(async () => {
      const names = await exportFieldNames(orm.em.fork(), filter);
      return exportWith(csvStream(exportSubmissions(orm.em.fork(), filter), names));
    });
    const json = await measured(() =>
      exportWith([jsonStream(exportSubmissions(orm.em.fork(), filter))]),
    );
    const results = { rows: ROWS, heapBoundMB: HEAP_BOUND_MB, csv, json };
    console.log(JSON.stringify(results, null, 2));
    for (const [format, result] of Object.entries({ csv, json })) {
      if (result.heapGrowthMB > HEAP_BOUND_MB) {
        say(`${format}: heap grew ${result.heapGrowthMB} MB, past the ${HEAP_BOUND_MB} MB bound`);
        process.exitCode = 1;
      }
    }
  } finally {
    await orm.close(true);
    await postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  say(`failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
