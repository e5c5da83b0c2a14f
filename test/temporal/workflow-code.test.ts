import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workflowCode } from '../../src/temporal/workflow-code';

let root: string;

/** A build folder as tsc leaves it, with the entry written at `entryAt` (seconds). */
function build(entry: 'index.ts' | 'index.js', entryAt = 1_000): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-workflow-code-'));
  fs.mkdirSync(path.join(root, 'workflows'));
  const file = path.join(root, 'workflows', entry);
  fs.writeFileSync(file, '');
  fs.utimesSync(file, entryAt, entryAt);
  return file;
}

function bundleAt(seconds: number): string {
  const file = path.join(root, 'workflow-bundle.js');
  fs.writeFileSync(file, '');
  fs.utimesSync(file, seconds, seconds);
  return file;
}

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the workflow code a worker loads', () => {
  it('is the bundle npm run build made beside the compiled code', () => {
    build('index.js', 1_000);
    const bundle = bundleAt(1_001);
    expect(workflowCode(root)).toEqual({ workflowBundle: { codePath: bundle } });
  });

  it('is the compiled entry, bundled at start, when there is no bundle', () => {
    const entry = build('index.js');
    expect(workflowCode(root)).toEqual({ workflowsPath: entry });
  });

  it('ignores a bundle older than the compiled workflows (a later bare tsc)', () => {
    const entry = build('index.js', 2_000);
    bundleAt(1_000);
    expect(workflowCode(root)).toEqual({ workflowsPath: entry });
  });

  it('is the TypeScript entry under vitest', () => {
    const entry = build('index.ts');
    expect(workflowCode(root)).toEqual({ workflowsPath: entry });
    expect(workflowCode()).toEqual({
      workflowsPath: path.resolve(__dirname, '../../workflows/index.ts'),
    });
  });
});
