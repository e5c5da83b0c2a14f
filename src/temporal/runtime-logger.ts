import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from 'pino';

let installed = false;

/**
 * Routes the Temporal SDK's own logs (worker state, bundling) into our pino logger, at warn and
 * above. With `metricsAddress` (`127.0.0.1:port`, only when this process's metrics are
 * served) the SDK's runtime also serves its worker metrics there, for our /metrics to append
 * (docs/metrics.md).
 * The runtime is installed once per process: the first call decides. Returns whether this
 * call installed it.
 */
export function installTemporalRuntimeLogger(
  logger: Logger,
  options: { metricsAddress?: string; globalTags?: Record<string, string> } = {},
): boolean {
  if (installed) return false;
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
    ...(options.metricsAddress && {
      telemetryOptions: {
        metrics: {
          globalTags: options.globalTags,
          prometheus: { bindAddress: options.metricsAddress },
        },
      },
    }),
  });
  return true;
}
