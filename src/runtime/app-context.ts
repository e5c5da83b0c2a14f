import type { AppContext } from '../app-context';
import type { Config } from '../config/config';
import { createOrm } from '../db/orm';
import { deliveryPolicy } from '../temporal/delivery-policy';
import { FormCache } from '../domain/forms/form-cache';
import { parseAllowList } from '../domain/plugins/address-policy';
import { LazyTemporalClient } from '../temporal/client';
import { createWorkflowStarter } from '../temporal/workflow-starter';
import { resolveAppSecret } from './app-secret';
import { createDns } from './dns';
import { createLogger } from './logger';

export type Endpoints = { databaseUrl: string; temporalAddress: string };

/** Wires configuration, PostgreSQL, Temporal and DNS into the context the HTTP layer uses. */
export async function createAppContext(
  config: Config,
  endpoints: Endpoints,
): Promise<AppContext & { temporal: LazyTemporalClient; close(): Promise<void> }> {
  const logger = createLogger(config.logLevel);
  const orm = await createOrm(endpoints.databaseUrl);
  const temporal = new LazyTemporalClient({
    address: endpoints.temporalAddress,
    namespace: config.temporal.namespace,
  });
  const workflows = createWorkflowStarter({
    temporal,
    orm,
    taskQueue: config.temporal.taskQueue,
    logger,
    delivery: deliveryPolicy(config),
  });
  const { resolver, lookupHost } = createDns(config.dnsServers);
  return {
    config,
    orm,
    logger,
    urls: { base: config.baseUrl, ingest: config.ingestUrl },
    workflows,
    resolver,
    lookupHost,
    forms: new FormCache(),
    webhookAllowList: parseAllowList(config.webhook.allowPrivate),
    appSecret: resolveAppSecret(config.appSecret, config.dataDir),
    temporal,
    async close() {
      await temporal.close();
      await orm.close();
    },
  };
}
