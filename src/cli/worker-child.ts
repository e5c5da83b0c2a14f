import { main } from '../cli';
import { WORKER_SHUTDOWN_GRACE_MS } from '../temporal/worker';
import { WORKER_STOP_MARGIN_MS } from './worker-supervisor';

// The process `formward start` forks for its worker (src/cli/worker-supervisor.ts):
// `formward worker`, configured through the environment its parent gave it.

// Its name in ps, top and the bench's CPU figures (bench/cpu.ts groups by command name).
process.title = 'formward-worker';

/**
 * A parent that dies without stopping us (SIGKILL) closes the IPC channel: stop the same way
 * as on SIGTERM, and exit regardless once the shutdown grace is over.
 */
const parentGone = () => {
  setTimeout(() => process.exit(1), WORKER_SHUTDOWN_GRACE_MS + WORKER_STOP_MARGIN_MS).unref();
  process.kill(process.pid, 'SIGTERM');
};
process.once('disconnect', parentGone);

void main(['worker']).finally(() => {
  // The open channel alone would keep this process alive.
  process.removeListener('disconnect', parentGone);
  if (process.connected) process.disconnect();
});
