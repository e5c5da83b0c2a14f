import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Orm } from '../db/orm';
import { createMailer } from '../domain/mail/mailer';
import { parseAllowList } from '../domain/plugins/address-policy';
import type { Dial } from '../domain/webhooks/guarded-connector';
import { createWebhookSender } from '../domain/webhooks/webhook-sender';
import { installTemporalRuntimeLogger } from '../temporal/runtime-logger';
import { createWorker } from '../temporal/worker';
import { createDns } from './dns';

export type RunningWorker = {
  stop(): Promise<void>;
  done: Promise<void>;
  /** The SDK worker's state: RUNNING while it polls. */
  state(): string;
};

/**
 * Runs the Temporal worker until `stop()`: it stops polling, lets in-flight activities finish
 * within the grace time (or hands them back to Temporal), then closes its connections.
 */
export async function runWorker(options: {
  config: Config;
  /** The Temporal frontend actually in use (embedded or TEMPORAL_ADDRESS). */
  address: string;
  orm: Orm;
  logger: Logger;
  /** Public API URL for links in e-mails; defaults to BASE_URL. */
  baseUrl?: string;
  /** Replaces the TLS dialer of webhook deliveries (tests of the connect timeout). */
  dial?: Dial;
}): Promise<RunningWorker> {
  const { config, logger } = options;
  installTemporalRuntimeLogger(logger);
  const sender = createWebhookSender({
    connectTimeoutMs: config.webhook.connectTimeoutMs,
    readTimeoutMs: config.webhook.readTimeoutMs,
    allowList: parseAllowList(config.webhook.allowPrivate),
    lookupHost: createDns(config.dnsServers).lookupHost,
    dial: options.dial,
  });
  const mailer = createMailer(config, logger);
  const { worker, connection } = await createWorker({
    address: options.address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    orm: options.orm,
    logger,
    sender,
    mailer,
    baseUrl: options.baseUrl ?? config.baseUrl,
  });
  const done = worker
    .run()
    .catch((error: unknown) => {
      logger.error({ err: error }, 'temporal worker stopped with an error');
      throw error;
    })
    .finally(async () => {
      await connection.close();
      await sender.close();
      mailer.close();
    });
  logger.info({ taskQueue: config.temporal.taskQueue }, 'temporal worker running');
  return {
    done,
    state: () => worker.getState(),
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}
