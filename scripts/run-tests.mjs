// `npm test`: the unit project, then the integration project (vitest.config.mts), each in its
// own `vitest run`, then the wall time of each and of the whole run, so a log (CI's included)
// shows where the time goes:
//   npm test: unit 21 s (passed) · integration 1130 s (passed) · total 1152 s
// Arguments go to both runs (`npm test -- test/config`, `npm test -- -t "sign-in"`); a
// project that has no file matching the filters is left out. Both projects run even when the
// first fails; the exit code is the first failing run's. TEST_TIMES_FILE, when set, also gets
// the line (.ci/run repeats it in its last section).
import { spawn } from 'node:child_process';
import console from 'node:console';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createVitest, parseCLI } from 'vitest/node';

const PROJECTS = ['unit', 'integration'];
const VITEST = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** The projects that have a file matching the filters of `args`, as vitest itself selects them. */
async function projectsToRun(args) {
  const { filter, options } = parseCLI(['vitest', 'run', ...args]);
  const { config, root, dir, project } = options;
  const vitest = await createVitest('test', { config, root, dir, project, watch: false });
  try {
    const files = await vitest.globTestSpecifications(filter);
    return PROJECTS.filter((name) => files.some((file) => file.project.name === name));
  } finally {
    await vitest.close();
  }
}

let current = null;
let stopped = false;
// Ctrl-C reaches vitest from the terminal too: remember it and start no further run.
process.on('SIGINT', () => {
  stopped = true;
});
process.on('SIGTERM', () => {
  stopped = true;
  current?.kill('SIGTERM');
});

/** Runs `vitest run` with `args`; resolves to its exit code (1 when a signal ended it). */
function runVitest(args) {
  return new Promise((resolve) => {
    current = spawn(process.execPath, [VITEST, 'run', ...args], { stdio: 'inherit' });
    current.on('error', (error) => {
      console.error(`could not start vitest: ${error.message}`);
      resolve(1);
    });
    current.on('exit', (code) => resolve(code ?? 1));
  });
}

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

const args = process.argv.slice(2);
const started = performance.now();
const projects = await projectsToRun(args);
if (projects.length === 0) {
  // No file matches: vitest says so in its own words, and exits 1.
  process.exit(await runVitest(args));
}

const timings = [];
let exitCode = 0;
for (const name of projects) {
  if (stopped) break;
  const start = performance.now();
  const code = await runVitest([...args, '--project', name]);
  timings.push(
    `${name} ${seconds(performance.now() - start)} (${code === 0 ? 'passed' : 'failed'})`,
  );
  if (code !== 0 && exitCode === 0) exitCode = code;
}
const line = `npm test: ${[...timings, `total ${seconds(performance.now() - started)}`].join(' · ')}`;
console.log(`\n${line}`);
if (process.env.TEST_TIMES_FILE) fs.appendFileSync(process.env.TEST_TIMES_FILE, `${line}\n`);
process.exit(stopped && exitCode === 0 ? 130 : exitCode);
