// `npm run bench`: Formward's ingest endpoints against a bare Express + pg baseline, then
// the Temporal ceiling (bench/ceiling.ts) and delivery end to end (ingest -> workflow ->
// signed HTTPS webhook to a local receiver) on the same server, each
// part on a fresh stack (the ingest part leaves a workflow backlog the e2e part must not see).
// Environment: BENCH_ONLY=ingest|e2e (one part only), BENCH_TEMPORAL=dev|postgres|both (the
// Temporal server(s) of the e2e part, bench/temporal-servers.ts), BENCH_DURATION (s, default 10),
// BENCH_ROUNDS (ingest rounds, default 3; each case is the median of its rounds),
// BENCH_CASES (ingest cases, a comma list of baseline,json,form,json-idle,form-idle,paced;
// default all), BENCH_E2E_RATE / BENCH_E2E_DURATION / BENCH_E2E_BURST (default 80/s, 60 s, 1000),
// BENCH_CPU_PROF=1 (profile the formward processes; written on exit), BENCH_KEEP_DATA=1 (keep
// its DATA_DIR), BENCH_RESULTS (JSON output file).
// A profile of the `/json` phase alone (pipeline running):
//   BENCH_ONLY=ingest BENCH_CASES=json BENCH_CPU_PROF=1 npm run bench
//   node .tmp/bench/dist/bench/profile-summary.js --busiest 10 .tmp/bench/profiles
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestCertificates } from '../test/support/test-ca';
import { runCeiling } from './ceiling';
import { evaluateCeilingTargets, ratiosToCeiling } from './ceiling-report';
import { e2eEnvironment, runE2e, type E2eResult } from './e2e';
import { evaluateE2eTargets } from './e2e-report';
import { runIngest } from './ingest';
import { casesToRun } from './ingest-cases';
import { evaluateTargets } from './ingest-report';
import { resumePausedWorker } from './pipeline-pause';
import { printReport, writeResults, type Results } from './report';
import { stopActiveSession, withSession } from './session';
import { repoRoot } from './stack';
import { SERVER_LABELS, temporalServersToRun, type TemporalServerKind } from './temporal-servers';

const ONLY = process.env.BENCH_ONLY || null;

const t0 = Date.now();
const loadAtStart = os.loadavg();
const say = (line: string) =>
  console.error(`[bench +${((Date.now() - t0) / 1000).toFixed(0)}s] ${line}`);

const environment = () => ({
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  loadavgAtStart: loadAtStart,
  loadavgAtEnd: os.loadavg(),
  commit: gitCommit(),
});

async function main(): Promise<void> {
  if (ONLY !== null && ONLY !== 'ingest' && ONLY !== 'e2e')
    throw new Error(`BENCH_ONLY=${ONLY}: expected ingest or e2e`);
  if (ONLY !== 'ingest') say(`e2e on: ${temporalServersToRun().join(', ')}`); // checks BENCH_TEMPORAL
  if (ONLY !== 'e2e') say(`ingest cases: ${casesToRun().join(', ')}`); // checks BENCH_CASES
  const outDir = path.join(repoRoot(), '.tmp', 'bench');
  const resultsFile = process.env.BENCH_RESULTS || path.join(outDir, 'results', 'latest.json');
  const profileDir = path.join(outDir, 'profiles');
  const nodeFlags = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
    : [];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping`);
      resumePausedWorker(); // a stopped worker would not hear the SIGTERM of the shutdown
      // Calls in flight (the ceiling's starts) fail once their server stops: not fatal now.
      process.on('uncaughtException', (error) => say(`while stopping: ${error.message}`));
      void stopActiveSession().finally(() => process.exit(130));
    });
  }

  let results: Results = {
    startedAt: new Date(t0).toISOString(),
    environment: environment(),
    only: ONLY,
    targets: [],
  };
  const logs: string[] = [];
  const leftovers: string[] = [];
  let failure: unknown = null;

  if (ONLY !== 'e2e') {
    const logFile = path.join(outDir, 'formward.log');
    const run = await withSession({ logFile, nodeFlags, say }, (s) => runIngest(s, say));
    logs.push(logFile);
    leftovers.push(...run.leftovers);
    failure = run.error;
    if (run.value) {
      results = { ...results, ...run.value, targets: evaluateTargets(run.value) };
      if (run.shutdown) results.shutdown = run.shutdown;
      writeResults(resultsFile, results); // kept if the e2e part fails
    }
  }

  for (const server of ONLY === 'ingest' ? [] : temporalServersToRun()) {
    if (failure) break;
    const run = await runE2eOn(server, outDir, nodeFlags);
    logs.push(...run.logs);
    leftovers.push(...run.leftovers);
    failure = run.error;
    if (run.e2e) {
      leftovers.push(...(run.e2e.extraWorker?.leftovers ?? []));
      const targets = [...evaluateE2eTargets(run.e2e), ...evaluateCeilingTargets(run.e2e)];
      // The first server's run stays at `e2e`'s top level, as before there were two.
      results = {
        ...results,
        e2e: { ...(results.e2e ?? run.e2e), [server]: run.e2e },
        targets: [...results.targets, ...targets],
      };
    }
  }

  if (results.cases || results.e2e) {
    results.environment = environment();
    printReport(results);
    writeResults(resultsFile, results);
    console.log(`\nResults: ${resultsFile}\nLogs: ${logs.join(', ')}`);
  }
  if (process.env.BENCH_CPU_PROF) say(`CPU profiles (written on exit): ${profileDir}`);
  if (leftovers.length > 0) {
    say(`processes left behind:\n${leftovers.join('\n')}`);
    process.exitCode = 1;
  }
  if (failure) throw failure;
}

/** The ceiling, then Formward's e2e, on a fresh stack whose Temporal is `server`. */
async function runE2eOn(server: TemporalServerKind, outDir: string, nodeFlags: string[]) {
  const suffix = server === 'dev' ? '' : `-${server}`;
  const logFile = path.join(outDir, `formward-e2e${suffix}.log`);
  const workerLogFile = path.join(outDir, `worker-2${suffix}.log`);
  const servicesLogFile = path.join(outDir, `temporal${suffix}.log`);
  const logs = [logFile, workerLogFile, ...(server === 'dev' ? [] : [servicesLogFile])];
  say(`e2e on the ${SERVER_LABELS[server]}`);
  const caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-bench-ca-'));
  const removeCa = () => fs.rmSync(caDir, { recursive: true, force: true });
  process.once('exit', removeCa); // a SIGINT exits without the finally below
  try {
    const certificates = createTestCertificates(caDir);
    const env = e2eEnvironment(certificates);
    const options = { logFile, nodeFlags, env, say, temporal: server, servicesLogFile };
    const run = await withSession(options, async (s) => {
      const ceiling = await runCeiling({
        address: s.formward.runtime.temporalAddress,
        namespace: s.formward.env.TEMPORAL_NAMESPACE || 'default',
        say,
      });
      const e2e = await runE2e({ ...s, certificates, workerLogFile, say });
      return { ...e2e, ceiling, ratiosToCeiling: ratiosToCeiling(e2e, ceiling) };
    });
    const e2e: E2eResult | null = run.value
      ? { ...run.value, server, shutdown: run.shutdown }
      : null;
    return { e2e, error: run.error, leftovers: run.leftovers, logs };
  } finally {
    removeCa();
    process.removeListener('exit', removeCa);
  }
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot() })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

main().catch((error: Error) => {
  say(`failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
