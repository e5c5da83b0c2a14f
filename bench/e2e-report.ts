import type { DatabaseBudget } from './db-statements';
import type { E2eResult } from './e2e';
import type { Target } from './target';
import { cores, statuses, table } from './table';
import { SERVER_LABELS } from './temporal-servers';

export const E2E_P99_MAX_MS = 1000;

/** `e2e [postgres]`: the start of a target's name, with the Temporal server it ran on. */
export const e2eTargetPrefix = (e2e: E2eResult) => (e2e.server ? `e2e [${e2e.server}]` : 'e2e');

/** Where the run was, for the headings: `on the Temporal CLI dev server (…)`. */
export const onServer = (e2e: E2eResult) =>
  e2e.server ? ` on the ${SERVER_LABELS[e2e.server]}` : '';

/**
 * Issue 20's delivery targets at the paced rate (every submission delivered, p99 < 1 s), and no
 * delivery lost, duplicated or badly signed in any phase.
 */
export function evaluateE2eTargets(e2e: E2eResult): Target[] {
  const paced = e2e.phases[0];
  const sum = (pick: (p: E2eResult['phases'][number]) => number) =>
    e2e.phases.reduce((total, p) => total + pick(p), 0);
  const lost = sum((p) => p.deliveries.lost);
  const duplicated = sum((p) => p.deliveries.duplicated);
  const badSignatures = sum((p) => p.deliveries.badSignatures);
  const rate = `at ${e2e.settings.rate} submissions/s`;
  const e2eOf = e2eTargetPrefix(e2e);
  return [
    {
      name: `${e2eOf} paced ${rate}: submissions not delivered`,
      measured: paced.deliveries.lost,
      limit: '= 0',
      holds: paced.deliveries.lost === 0,
    },
    {
      name: `${e2eOf} delivery p99 ${rate} ms`,
      measured: paced.deliveries.latencyMs.p99,
      limit: `< ${E2E_P99_MAX_MS}`,
      holds: paced.deliveries.latencyMs.p99 < E2E_P99_MAX_MS,
    },
    {
      name: `${e2eOf} deliveries lost (all phases)`,
      measured: lost,
      limit: '= 0',
      holds: lost === 0,
    },
    {
      name: `${e2eOf} duplicated under another webhook-id (all phases)`,
      measured: duplicated,
      limit: '= 0',
      holds: duplicated === 0,
    },
    {
      name: `${e2eOf} bad X-Service-Signature (all phases)`,
      measured: badSignatures,
      limit: '= 0',
      holds: badSignatures === 0,
    },
  ];
}

export function e2eLines(e2e: E2eResult): string[] {
  const s = e2e.settings;
  const out = [
    `\nEnd to end${onServer(e2e)}: ingest -> Temporal workflow -> signed HTTPS webhook to a receiver on 127.0.0.1 (latency = receipt - ingest answer)`,
    table([
      [
        'phase',
        'workers',
        'accepted',
        'ingest/s',
        'received',
        'lost',
        'dup',
        'redeliv',
        'bad sig',
      ].concat(['p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'deliveries/s']),
      ...e2e.phases.map((p) => {
        const d = p.deliveries;
        return [
          p.name,
          String(p.workers),
          String(d.submitted),
          p.ingestRate.toFixed(1),
          String(d.received),
          String(d.lost),
          String(d.duplicated),
          String(d.redelivered),
          String(d.badSignatures),
          d.latencyMs.p50.toFixed(0),
          d.latencyMs.p90.toFixed(0),
          d.latencyMs.p99.toFixed(0),
          d.latencyMs.max.toFixed(0),
          d.deliveriesPerS.toFixed(1),
        ];
      }),
    ]),
  ];
  for (const p of e2e.phases) {
    const ingest = p.ingest;
    const answers =
      'latencyMs' in ingest
        ? `ingest answers p50 ${ingest.latencyMs.p50} ms, p99 ${ingest.latencyMs.p99} ms, generator max lag ${ingest.maxSendLagMs} ms`
        : `ingest took the burst in ${ingest.seconds} s`;
    out.push(
      `  ${p.name} (${p.workers} worker${p.workers > 1 ? 's' : ''}): ${answers}; statuses ${statuses(ingest.statusCodes)}` +
        `${ingest.errors || p.rejected ? `, errors ${ingest.errors}, without id ${p.rejected}` : ''}; ` +
        `deliveries over ${p.deliveries.spanS} s; ${p.complete ? 'all arrived' : 'NOT all arrived'} ${p.waitedS} s after the last answer`,
    );
    const st = p.stages;
    const pair = (x: { p50: number; p99: number }) => `${x.p50}/${x.p99}`;
    out.push(
      `    after the insert, p50/p99 ms: ` +
        `spam checked ${pair(st.spamChecked)}, attempt started ${pair(st.attemptStarted)}, ` +
        `finished ${pair(st.attemptFinished)}`,
    );
    out.push(`    CPU cores ${cores(p.cores)}`);
    if (p.database) out.push(...databaseLines(p.database));
    if (p.deliveries.lost > 0)
      out.push(
        `    lost: ${JSON.stringify(p.lostReasons)}; e.g. ids ${p.deliveries.lostIds.slice(0, 5).join(', ')}`,
      );
  }
  const byStatus = Object.entries(e2e.attempts.byStatus)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
  out.push(
    `  delivery log: ${byStatus || 'no attempts'}` +
      (Object.keys(e2e.attempts.errors).length
        ? `; errors ${JSON.stringify(e2e.attempts.errors)}`
        : ''),
  );
  out.push(
    `  receiver: ${e2e.receiver.requests} requests over ${e2e.receiver.tlsConnections} TLS connections, ${e2e.receiver.strays} not from this run's submissions`,
  );
  const w = e2e.extraWorker;
  if (w)
    out.push(
      `  second worker: ready ${w.startS} s after spawn; stopped ${w.seconds} s after SIGTERM` +
        `${w.graceful ? '' : ' (killed)'}; ${w.leftovers.length ? `LEFT BEHIND: ${w.leftovers.join('; ')}` : 'no process left'}`,
    );
  out.push(
    `  settings: ${s.rate}/s for ${s.durationS} s after ${s.warmupS} s warm-up; bursts of ${s.burst} with ${s.burstConcurrency} connections`,
  );
  return out;
}

/** The phase's database budget: totals, then the statements by time spent. */
function databaseLines(d: DatabaseBudget): string[] {
  const u = d.submissionUpdates;
  return [
    `    database per delivered submission (${d.delivered}): ${d.statementsPerSubmission} statements, ` +
      `${d.execMsPerSubmission} ms executing; submissions rows updated ${u.updates} times, ${u.hot} HOT ` +
      '(counts exact; ms move with the load of the machine)',
    ...table(
      [
        ['calls/sub', 'mean ms', 'ms/sub'],
        ...d.top.map((t) => [
          t.callsPerSubmission.toFixed(2),
          t.meanMs.toFixed(3),
          t.msPerSubmission.toFixed(3),
        ]),
      ],
      0,
    )
      .split('\n')
      // The statement last and left-aligned; `*` marks one run inside another (an FK check).
      .map((line, i) => {
        const t = d.top[i - 1];
        return `      ${line}  ${t ? `${t.toplevel ? '' : '* '}${t.query}` : 'statement'}`;
      }),
  ];
}
