// Records one history a scenario of the submission workflow (or, with --workflow recovery,
// of the recovery workflow and each child it starts), as one shape of its code runs them,
// into test/fixtures/workflow-histories/<shape>/ (README.md there says when and how).
//
//   npm run record-histories -- --shape v2-my-change                        (the working tree)
//   npm run record-histories -- --shape v1-released-f520858 --commit f520858
//   npm run record-histories -- --workflow recovery --shape recovery-v1
//
// It runs a throw-away Temporal dev server (the installed CLI: TEMPORAL_CLI or the cache of
// scripts/temporal-cli.sh) and a worker with the scenario activities.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker } from '@temporalio/worker';
import { format } from 'prettier';
import { findTemporalCli } from '../src/embedded/temporal-cli';
import { historyToJSON } from '../test/temporal/history-json';
import {
  recoveryChildWorkflowId,
  type RecoveryWorkflowInput,
} from '../workflows/recovery-contract';
import type { SubmissionWorkflowInput } from '../workflows/submission-contract';
import {
  RECORDING_POLICY,
  RECOVERY_SCENARIOS,
  SCENARIOS,
  scenarioActivities,
  type RecoveryScenario,
  type Scenario,
} from './workflow-history-scenarios';

const repoRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const TASK_QUEUE = 'formward';

/** The workflow code of an older commit, outside the repository, resolving the same packages. */
function checkout(commit: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formward-${commit}-`));
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'workflows', 'src'], {
    cwd: repoRoot,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(
    fs.realpathSync(path.join(repoRoot, 'node_modules')),
    path.join(dir, 'node_modules'),
  );
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

type Handle = ReturnType<TestWorkflowEnvironment['client']['workflow']['getHandle']>;

/** Writes a finished run's history to `<outDir>/<name>.json`. */
async function save(handle: Handle, outDir: string, name: string) {
  const history = await handle.fetchHistory();
  const file = path.join(outDir, `${name}.json`);
  fs.writeFileSync(file, await format(historyToJSON(history), { parser: 'json' }));
  console.log(`${path.relative(repoRoot, file)}: ${history.events?.length} events`);
}

async function record(env: TestWorkflowEnvironment, scenario: Scenario, outDir: string) {
  const input: SubmissionWorkflowInput = {
    submissionId: scenario.submissionId,
    mode: scenario.mode,
    delivery: RECORDING_POLICY,
    ...(scenario.event && { event: scenario.event }),
    ...(scenario.version && { version: scenario.version }),
    ...(scenario.deleted && { deleted: scenario.deleted }),
  };
  const handle = await env.client.workflow.start('submissionWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: `submission-${scenario.submissionId}`,
    args: [input],
    workflowExecutionTimeout: '2m',
  });
  const result = await handle.result();
  await save(handle, outDir, scenario.name);
  console.log(`  result: ${JSON.stringify(result)}`);
}

/** The run's history, and each child's as `<scenario>.submission-<id>.json`. */
async function recordRecovery(
  env: TestWorkflowEnvironment,
  scenario: RecoveryScenario,
  outDir: string,
) {
  const input: RecoveryWorkflowInput = {
    recoveryId: scenario.recoveryId,
    pluginId: scenario.pluginId,
    pluginType: 'webhook',
    ratePerSecond: scenario.ratePerSecond,
    delivery: RECORDING_POLICY,
  };
  const handle = await env.client.workflow.start('recoveryWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: `recovery-${scenario.recoveryId}`,
    args: [input],
    workflowExecutionTimeout: '2m',
  });
  const result = await handle.result();
  await save(handle, outDir, scenario.name);
  console.log(`  result: ${JSON.stringify(result)}`);
  for (const { submissionId } of scenario.candidates) {
    const childId = recoveryChildWorkflowId(submissionId, scenario.recoveryId);
    const child = env.client.workflow.getHandle(childId);
    await save(child, outDir, `${scenario.name}.submission-${submissionId}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      shape: { type: 'string' },
      workflow: { type: 'string', default: 'submission' },
      commit: { type: 'string' },
      out: { type: 'string', default: path.join(repoRoot, 'test/fixtures/workflow-histories') },
    },
  });
  if (!values.shape) throw new Error('--shape NAME is required (the folder the histories go to)');
  if (values.workflow !== 'submission' && values.workflow !== 'recovery') {
    throw new Error('--workflow is submission (the default) or recovery');
  }
  const recovery = values.workflow === 'recovery';
  const source = values.commit ? checkout(values.commit) : { dir: repoRoot, remove() {} };
  const outDir = path.join(values.out, values.shape);
  fs.mkdirSync(outDir, { recursive: true });

  // Errors only: the timed-out attempts' late completions are expected here.
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
  });
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: await findTemporalCli() } },
  });
  try {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: TASK_QUEUE,
      workflowsPath: path.join(source.dir, 'workflows/index.ts'),
      activities: scenarioActivities(SCENARIOS),
    });
    const runs = recovery
      ? RECOVERY_SCENARIOS.map((s) => recordRecovery(env, s, outDir))
      : SCENARIOS.map((s) => record(env, s, outDir));
    await worker.runUntil(Promise.all(runs));
  } finally {
    await env.teardown();
    source.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
