// `npm run build`'s second step, run from dist/ after tsc: bundles the workflow code once, so
// a worker loads it instead of running webpack each time it starts.
import fs from 'node:fs';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import {
  workflowBundlePath,
  workflowInterceptorModules,
  workflowsEntry,
} from '../src/temporal/workflow-code';

async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsEntry(),
    workflowInterceptorModules: workflowInterceptorModules(),
    logger: new DefaultLogger('WARN'), // webpack's module listing is noise in a build log
  });
  fs.writeFileSync(workflowBundlePath(), code);
  console.log(`workflow bundle: ${workflowBundlePath()} (${Math.round(code.length / 1024)} KiB)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
