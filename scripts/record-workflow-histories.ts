// Records one history a scenario of the submission workflow, as one shape of its code runs
// them, into test/fixtures/workflow-histories/<shape>/ (README.md there says when and how).
//
//   npm run record-histories -- --shape v2-my-change                        (the working tree)
//   npm run record-histories -- --shape v1-released-f520858 --commit f520858
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
import type { SubmissionWorkflowInput } from '../workflows/submission-contract';
import {
  RECORDING_POLICY,
  SCENARIOS,
  scenarioActivities,
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

async function record(env: TestWorkflowEnvironment, scenario: Scenario, outDir: string) {
  const input: SubmissionWorkflowInput = {
    submissionId: scenario.submissionId,
    mode: scenario.mode,
    delivery: RECORDING_POLICY,
  };
  const handle = await env.client.workflow.start('submissionWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: `submission-${scenario.submissionId}`,
    args: [input],
    workflowExecutionTimeout: '2m',
  });
  const result = await handle.result();
  const history = await handle.fetchHistory();
  const file = path.join(outDir, `${scenario.name}.json`);
  fs.writeFileSync(file, await format(historyToJSON(history), { parser: 'json' }));
  console.log(`${path.relative(repoRoot, file)}: ${history.events?.length} events`);
  console.log(`  result: ${JSON.stringify(result)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      shape: { type: 'string' },
      commit: { type: 'string' },
      out: { type: 'string', default: path.join(repoRoot, 'test/fixtures/workflow-histories') },
    },
  });
  if (!values.shape) throw new Error('--shape NAME is required (the folder the histories go to)');
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
    await worker.runUntil(Promise.all(SCENARIOS.map((s) => record(env, s, outDir))));
  } finally {
    await env.teardown();
    source.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
