import fs from 'node:fs';
import path from 'node:path';

/** The repository root under vitest; dist/ when compiled. */
const codeRoot = path.resolve(__dirname, '../..');

/** Where `npm run build` writes the workflow bundle: beside the compiled code. */
export const workflowBundlePath = (root = codeRoot) => path.join(root, 'workflow-bundle.js');

/** The workflow bundle's entry, as TypeScript under vitest or as compiled JavaScript in dist/. */
export function workflowsEntry(root = codeRoot): string {
  const base = path.join(root, 'workflows/index');
  return fs.existsSync(`${base}.ts`) ? `${base}.ts` : `${base}.js`;
}

/** The bundle's workflow interceptors (workflows/tracing-interceptors.ts, docs/tracing.md). */
export function workflowInterceptorModules(root = codeRoot): string[] {
  const base = path.join(root, 'workflows/tracing-interceptors');
  return [fs.existsSync(`${base}.ts`) ? `${base}.ts` : `${base}.js`];
}

export type WorkflowCode = { workflowBundle: { codePath: string } } | { workflowsPath: string };

const modifiedAt = (file: string) => fs.statSync(file).mtimeMs;

/**
 * The worker's workflow code: the bundle made ahead of time when there is one at least as new
 * as the compiled workflows (a later bare `tsc` makes it stale), else the entry, which the
 * worker bundles when it starts.
 */
export function workflowCode(root = codeRoot): WorkflowCode {
  const bundle = workflowBundlePath(root);
  const entry = workflowsEntry(root);
  const fresh = fs.existsSync(bundle) && modifiedAt(bundle) >= modifiedAt(entry);
  return fresh ? { workflowBundle: { codePath: bundle } } : { workflowsPath: entry };
}
