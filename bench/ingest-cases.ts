import { coresBetween, msPerAnswer, sampleCpu } from './cpu';
import type { PacedRound, Pipeline, ThroughputRound } from './ingest-results';
import { checkOnce, runLoad, type Case } from './load';
import { runPaced } from './paced';
import { withWorkerPaused } from './pipeline-pause';
import type { Session } from './session';
import { accountFor, lastSubmissionId, settle } from './settle';

export const DURATION_S = Number(process.env.BENCH_DURATION || 10);
export const WARMUP_S = 2;
export const CONNECTIONS = 20;
export const PACED_RATES = [200, 500];

/** What BENCH_CASES can name, in the order a round runs them. */
export const CASE_KEYS = ['baseline', 'json', 'form', 'json-idle', 'form-idle', 'paced'] as const;
export type CaseKey = (typeof CASE_KEYS)[number];

/** BENCH_CASES (a comma list of CASE_KEYS), all of them by default. */
export function casesToRun(text = process.env.BENCH_CASES): CaseKey[] {
  if (!text) return [...CASE_KEYS];
  const named = text.split(',').map((s) => s.trim());
  const unknown = named.filter((s) => !(CASE_KEYS as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new Error(`BENCH_CASES: unknown ${unknown.join(', ')} (known: ${CASE_KEYS.join(',')})`);
  return CASE_KEYS.filter((k) => named.includes(k));
}

/** One case of the throughput table: a request shape and the pipeline's state meanwhile. */
export type CaseDef = { key: CaseKey; name: string; pipeline: Pipeline; request: Case };

export type IngestContext = {
  session: Session;
  formId: string;
  say: (line: string) => void;
};

const JSON_BODY = JSON.stringify({ email: 'bench@example.com', message: 'hello' });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const isOk = (body: string) => body.includes('"ok":true');

/** The request shapes: the baseline's, Formward's JSON endpoint and its HTML form endpoint. */
export function requests(baselineUrl: string, ingestUrl: string, token: string) {
  const json = (name: string, url: string): Case => ({
    name,
    url,
    headers: JSON_HEADERS,
    body: JSON_BODY,
    expectStatus: 200,
    verifyBody: isOk,
  });
  const form = (name: string): Case => ({
    name,
    url: `${ingestUrl}/f/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: 'email=bench%40example.com&message=hello',
    expectStatus: 302, // the redirect to the thank-you page is the success
    verifyBody: (body) => body.includes('Redirecting to'),
  });
  return {
    baseline: json('baseline', baselineUrl),
    json: (name: string) => json(name, `${ingestUrl}/json/${token}`),
    form,
  };
}

/** The throughput cases of a round, in order (the paced one is separate). */
export function throughputCases(r: ReturnType<typeof requests>): CaseDef[] {
  const def = (key: CaseKey, path: '/json' | '/f', pipeline: Pipeline): CaseDef => {
    const name = `POST ${path} (pipeline ${pipeline})`;
    return { key, name, pipeline, request: path === '/json' ? r.json(name) : r.form(name) };
  };
  return [
    { key: 'baseline', name: 'baseline', pipeline: null, request: r.baseline },
    def('json', '/json', 'running'),
    def('form', '/f', 'running'),
    def('json-idle', '/json', 'idle'),
    def('form-idle', '/f', 'idle'),
  ];
}

/** The parts whose CPU is reported: the baseline's server runs in the bench process. */
const partsOf = (pipeline: Pipeline) =>
  pipeline === null ? ['postgres', 'bench'] : ['http', 'worker', 'postgres', 'temporal', 'bench'];

const pick = (ms: Record<string, number>, parts: string[]) =>
  Object.fromEntries(parts.map((p) => [p, ms[p] ?? 0]));

/**
 * One round of a throughput case: warm-up, then the measured run; for Formward's cases each is
 * followed by the bounded pause (bench/settle.ts). With the pipeline idle the worker process
 * is paused through warm-up and run, and resumed before the pause that follows.
 */
export async function throughputRound(
  ctx: IngestContext,
  c: CaseDef,
  round: number,
): Promise<ThroughputRound> {
  const { db } = ctx.session;
  await checkOnce(c.request);
  if (c.pipeline === 'idle') {
    const paused = await withWorkerPaused(ctx.session.formward.pid, () => warmAndRun(ctx, c));
    return {
      ...paused.value,
      round,
      workerPid: paused.workerPid,
      settle: await settle(db, ctx.formId),
    };
  }
  const run = await warmAndRun(ctx, c);
  return { ...run, round, settle: c.pipeline ? await settle(db, ctx.formId) : null };
}

async function warmAndRun(ctx: IngestContext, c: CaseDef) {
  const { formward, db } = ctx.session;
  const formwardCase = c.pipeline !== null;
  const options = { durationS: DURATION_S, connections: CONNECTIONS };
  ctx.say(`${c.name}: warm-up ${WARMUP_S} s`);
  await runLoad(c.request, { ...options, durationS: WARMUP_S });
  // A paused worker starts nothing: only discard then, there is nothing to wait for.
  const warmupSettle = formwardCase ? await settle(db, ctx.formId, c.pipeline === 'running') : null;
  const afterId = formwardCase ? await lastSubmissionId(db) : null;
  ctx.say(`${c.name}: ${DURATION_S} s`);
  const before = sampleCpu(formward.pid);
  const result = await runLoad(c.request, options);
  const after = sampleCpu(formward.pid);
  const answered = result.statusCodes[String(c.request.expectStatus)] ?? 0;
  return {
    ...result,
    cores: coresBetween(before, after),
    cpuMsPerAnswer: pick(msPerAnswer(before, after, answered), partsOf(c.pipeline)),
    accounting: afterId === null ? null : await accountFor(db, ctx.formId, afterId, answered),
    warmupSettle,
  };
}

/** One round of the paced case at `rate`, pipeline running, then the bounded pause. */
export async function pacedRound(
  ctx: IngestContext,
  c: Case,
  rate: number,
  round: number,
): Promise<PacedRound> {
  const { formward, db } = ctx.session;
  await checkOnce(c);
  ctx.say(`${c.name}: ${DURATION_S} s paced at ${rate} req/s`);
  const afterId = await lastSubmissionId(db);
  const before = sampleCpu(formward.pid);
  const result = await runPaced(c, rate, DURATION_S);
  const after = sampleCpu(formward.pid);
  const answered = result.statusCodes[String(c.expectStatus)] ?? 0;
  return {
    ...result,
    round,
    cores: coresBetween(before, after),
    cpuMsPerAnswer: pick(msPerAnswer(before, after, answered), partsOf('running')),
    accounting: await accountFor(db, ctx.formId, afterId, answered),
    settle: await settle(db, ctx.formId),
  };
}
