import type { Logger } from 'pino';
import type { Config } from './config/config';
import type { FormCache } from './domain/forms/form-cache';
import type { Orm } from './db/orm';
import type { SubmissionWorkflowStarter } from './temporal/workflow-starter';
import type { DnsResolver } from './domain/domains/resolver-type';
import type { AllowList } from './domain/plugins/address-policy';

/** Public URLs used in links; `start` fills them in once the port is bound. */
export type PublicUrls = { base: string; ingest: string };

/** What the HTTP layer and the CLI share: configuration, storage, Temporal and DNS. */
export type AppContext = {
  config: Config;
  orm: Orm;
  logger: Logger;
  urls: PublicUrls;
  workflows: SubmissionWorkflowStarter;
  resolver: DnsResolver;
  appSecret: string;
  /** WEBHOOK_ALLOW_PRIVATE, parsed. */
  webhookAllowList: AllowList;
  /** Forms as ingest sees them, cached briefly. */
  forms: FormCache;
  /** Resolves a host name to all its addresses (for webhook URL checks). */
  lookupHost: (hostname: string) => Promise<string[]>;
};
