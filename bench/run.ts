// `npm run bench`: Formward's ingest endpoints against a bare Express + pg baseline.
// Environment: BENCH_DURATION (s, default 10), BENCH_CPU_PROF=1 (profile the formward
// process), BENCH_KEEP_DATA=1 (keep its DATA_DIR), BENCH_RESULTS (JSON output file).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { startBaseline, type Baseline } from './baseline';
import { coresBetween, sampleCpu } from './cpu';
import { drainWorkflows } from './drain';
import { processesLeft } from './leftovers';
import { checkOnce, runLoad, type Case, type LoadOptions } from './load';
import { runPaced } from './paced';
import { evaluateTargets, printReport, ratio, writeResults, type Results } from './report';
import { repoRoot, startFormward, type Formward } from './stack';

const DURATION_S = Number(process.env.BENCH_DURATION || 10);
const WARMUP_S = 2;
const CONNECTIONS = 20;
const FIXED_RATE = 200;

const t0 = Date.now();
const loadAtStart = os.loadavg();
const say = (line: string) =>
  console.error(`[bench +${((Date.now() - t0) / 1000).toFixed(0)}s] ${line}`);

function ingestCases(baselineUrl: string, ingestUrl: string, token: string): Case[] {
  const json = { email: 'bench@example.com', message: 'hello' };
  const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };
  const isOk = (body: string) => body.includes('"ok":true');
  return [
    {
      name: 'baseline',
      url: baselineUrl,
      headers: jsonHeaders,
      body: JSON.stringify(json),
      expectStatus: 200,
      verifyBody: isOk,
    },
    {
      name: 'POST /json/{token}',
      url: `${ingestUrl}/json/${token}`,
      headers: jsonHeaders,
      body: JSON.stringify(json),
      expectStatus: 200,
      verifyBody: isOk,
    },
    {
      name: 'POST /f/{token}',
      url: `${ingestUrl}/f/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'email=bench%40example.com&message=hello',
      expectStatus: 302, // the redirect to the thank-you page is the success
      verifyBody: (body) => body.includes('Redirecting to'),
    },
  ];
}

async function createForm(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/api/forms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  const body = (await response.json()) as { form?: { endpoint_token?: string } };
  const token = body.form?.endpoint_token;
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`POST /api/forms: ${response.status} ${JSON.stringify(body)}`);
  if (!token) throw new Error(`POST /api/forms: no endpoint_token in ${JSON.stringify(body)}`);
  return token;
}

async function measure(formward: Formward, db: Pool, c: Case, options: LoadOptions) {
  await checkOnce(c);
  say(`${c.name}: warm-up ${WARMUP_S} s`);
  await runLoad(c, { ...options, durationS: WARMUP_S });
  await drainWorkflows(db);
  say(
    `${c.name}: ${options.durationS} s${options.overallRate ? ` at ${options.overallRate} req/s` : ''}`,
  );
  const before = sampleCpu(formward.pid);
  const result = await runLoad(c, options);
  const cores = coresBetween(before, sampleCpu(formward.pid));
  const drainAfter = c.name === 'baseline' ? null : await drainWorkflows(db);
  return { ...result, cores, drainAfter };
}

async function main(): Promise<void> {
  const outDir = path.join(repoRoot(), '.tmp', 'bench');
  const resultsFile = process.env.BENCH_RESULTS || path.join(outDir, 'results', 'latest.json');
  const profileDir = path.join(outDir, 'profiles');
  let formward: Formward | null = null;
  let baseline: Baseline | null = null;
  let db: Pool | null = null;
  let started: { pid: number; dataDir: string } | null = null;
  let results: Results | null = null;
  const cleanup = async () => {
    await baseline?.close().catch((e: Error) => say(`baseline close: ${e.message}`));
    await db?.end().catch(() => undefined);
    const shutdown = await formward?.stop();
    baseline = db = formward = null;
    return shutdown;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    say('starting formward (embedded PostgreSQL + Temporal dev server + worker + HTTP)');
    const nodeFlags = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
      : [];
    // The free port is picked before the child binds it, ~15 s later: retry if it was taken.
    for (let attempt = 1; !formward; attempt++) {
      try {
        formward = await startFormward({ logFile: path.join(outDir, 'formward.log'), nodeFlags });
      } catch (error) {
        if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
        say('the HTTP port was taken meanwhile (EADDRINUSE); starting again');
      }
    }
    started = { pid: formward.pid, dataDir: formward.dataDir };
    say(`formward ready at ${formward.url} (pid ${formward.pid}, DATA_DIR ${formward.dataDir})`);

    const account = await formward.cli([
      'account',
      'create',
      '--email',
      'bench@example.com',
      '--password',
      'bench-password',
      '--name',
      'Bench',
    ]);
    const key = await formward.cli([
      'key',
      'create',
      '--account',
      String(account.account_id),
      '--role',
      'admin',
      '--name',
      'bench',
    ]);
    const token = await createForm(formward.url, String(key.key));
    db = new Pool({ connectionString: formward.runtime.databaseUrl, max: 2 });
    baseline = await startBaseline(formward.runtime.databaseUrl);
    const [baseCase, jsonCase, formCase] = ingestCases(baseline.url, formward.url, token);

    const loadOptions = { durationS: DURATION_S, connections: CONNECTIONS };
    const base = await measure(formward, db, baseCase, loadOptions);
    const cases = [base];
    for (const c of [jsonCase, formCase]) cases.push(await measure(formward, db, c, loadOptions));
    const fixedRate = await measure(formward, db, jsonCase, {
      ...loadOptions,
      overallRate: FIXED_RATE,
    });

    say(`${jsonCase.name}: ${DURATION_S} s paced at ${FIXED_RATE} req/s`);
    const before = sampleCpu(formward.pid);
    const pacedResult = await runPaced(jsonCase, FIXED_RATE, DURATION_S);
    const pacedCores = coresBetween(before, sampleCpu(formward.pid));
    const paced = { ...pacedResult, cores: pacedCores, drainAfter: await drainWorkflows(db) };

    const partial = {
      startedAt: new Date(t0).toISOString(),
      environment: {
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        loadavgAtStart: loadAtStart,
        loadavgAtEnd: os.loadavg(),
        commit: gitCommit(),
      },
      settings: {
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        connections: CONNECTIONS,
        fixedRate: FIXED_RATE,
      },
      cases: cases.map((c) => ({ ...c, ratioToBaseline: ratio(c.rps, base.rps) })),
      fixedRate,
      paced,
    };
    results = { ...partial, targets: evaluateTargets(partial) };
    printReport(results);
    writeResults(resultsFile, results);
    console.log(`\nResults: ${resultsFile}\nFormward log: ${formward.logFile}`);
  } finally {
    const shutdown = await cleanup();
    if (shutdown)
      say(
        `formward stopped in ${shutdown.seconds} s (${shutdown.graceful ? 'after SIGTERM' : 'SIGTERM was not enough: killed'})`,
      );
    if (results && shutdown) writeResults(resultsFile, { ...results, shutdown });
    if (process.env.BENCH_CPU_PROF) say(`CPU profiles (written on exit): ${profileDir}`);
  }
  const leftovers = started ? await processesLeft(started.pid, started.dataDir) : [];
  if (leftovers.length > 0) {
    say(`processes left behind:\n${leftovers.join('\n')}`);
    process.exitCode = 1;
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
