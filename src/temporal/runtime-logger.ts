import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from 'pino';

let installed = false;

/** Routes the Temporal SDK's own logs (worker state, bundling) into our pino logger, at warn and above. */
export function installTemporalRuntimeLogger(logger: Logger): void {
  if (installed) return;
  installed = true;
  const sdk = logger.child({ component: 'temporal-sdk' });
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    if (level === 'ERROR') sdk.error(meta ?? {}, message);
    else if (level === 'WARN') sdk.warn(meta ?? {}, message);
    else sdk.debug(meta ?? {}, message);
  };
  Runtime.install({
    logger: {
      log: write,
      trace: (m, meta) => write('TRACE', m, meta),
      debug: (m, meta) => write('DEBUG', m, meta),
      info: (m, meta) => write('INFO', m, meta),
      warn: (m, meta) => write('WARN', m, meta),
      error: (m, meta) => write('ERROR', m, meta),
    },
  });
}
