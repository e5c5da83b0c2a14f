import { startBaseline } from './baseline';
import { coresBetween, sampleCpu } from './cpu';
import { drainWorkflows } from './drain';
import { createForm } from './formward-api';
import { checkOnce, runLoad, type Case, type LoadOptions } from './load';
import { runPaced } from './paced';
import { ratio, type IngestResults } from './report';
import type { Session } from './session';

const DURATION_S = Number(process.env.BENCH_DURATION || 10);
const WARMUP_S = 2;
const CONNECTIONS = 20;
const FIXED_RATE = 200;

type Say = (line: string) => void;

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

async function measure({ formward, db }: Session, c: Case, options: LoadOptions, say: Say) {
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

/**
 * Ingest against the baseline (Express + one insert, in a worker thread): throughput with
 * autocannon, then latency at a fixed rate (autocannon's overallRate and an evenly paced one).
 */
export async function runIngest(session: Session, say: Say): Promise<IngestResults> {
  const { formward, db } = session;
  const baseline = await startBaseline(formward.runtime.databaseUrl);
  try {
    const { token } = await createForm(formward.url, session.key);
    const [baseCase, jsonCase, formCase] = ingestCases(baseline.url, formward.url, token);

    const loadOptions = { durationS: DURATION_S, connections: CONNECTIONS };
    const base = await measure(session, baseCase, loadOptions, say);
    const cases = [base];
    for (const c of [jsonCase, formCase]) cases.push(await measure(session, c, loadOptions, say));
    const fixedRate = await measure(
      session,
      jsonCase,
      { ...loadOptions, overallRate: FIXED_RATE },
      say,
    );

    say(`${jsonCase.name}: ${DURATION_S} s paced at ${FIXED_RATE} req/s`);
    const before = sampleCpu(formward.pid);
    const pacedResult = await runPaced(jsonCase, FIXED_RATE, DURATION_S);
    const pacedCores = coresBetween(before, sampleCpu(formward.pid));
    const paced = { ...pacedResult, cores: pacedCores, drainAfter: await drainWorkflows(db) };
    return {
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
  } finally {
    await baseline.close().catch((e: Error) => say(`baseline close: ${e.message}`));
  }
}
