import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The client's types hold a consumer to the API's schemas: client/test/consumer.ts uses the
 * client under `--strict` as an application would, and marks with `@ts-expect-error` the
 * calls the API would refuse (a misspelt field, a wrong type, an unknown error code). tsc
 * fails on such a line if it compiles, so a client typed more loosely than the routes fails
 * here.
 */

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

describe('the client package types', () => {
  it('compile a consumer under --strict and refuse what the API refuses', () => {
    const project = path.join(root, 'client', 'test', 'tsconfig.json');
    const run = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
