import { pluginSecretsCipher } from '../plugins/manage/plugin-secrets';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { createOrm, type Orm } from '../db/orm';
import { createAccountServices, type AccountServices } from '../domain/accounts/account-services';
import { createCaptchaVerifier } from '../domain/captcha/create-captcha-verifier';
import type { CaptchaVerifier } from '../domain/captcha/captcha-verifier';
import type { DomainCheckDeps } from '../domain/domains/domain-checks';
import { DnsCheckBudget } from '../domain/domains/dns-check-budget';
import { formPagesTarget } from '../domain/domains/pages-target';
import type { DnsResolver } from '../domain/domains/resolver-type';
import { createFileStore } from '../domain/files/create-file-store';
import type { FileStore } from '../domain/files/file-store';
import { FormCache } from '../domain/forms/form-cache';
import { devMailboxWarning } from '../domain/mail/dev-mailbox-exposure';
import { Semaphore } from '../domain/concurrency/semaphore';
import { SigningSecretCipher } from '../domain/secrets/signing-secret';
import { createReceipts, type Receipts } from '../domain/receipts/receipts';
import { parseAllowList, type AllowList } from '../outbound/address-policy';
import { UnsubscribeTokens } from '../domain/recipients/unsubscribe-tokens';
import { AddressKeys } from '../domain/mail/address-keys';
import type { PublicUrls } from './public-urls';
import { createGroupCommit, type GroupCommit } from '../pipeline/1-group-commit';
import { LazyTemporalClient } from '../temporal/client';
import { deliveryPolicy } from '../temporal/delivery-policy';
import { createRecoveryStarter } from '../temporal/recovery-starter';
import {
  retentionScheduleReader,
  type RetentionScheduleReader,
} from '../temporal/retention-schedule';
import type { RecoveryStarter } from '../domain/deliveries/recovery-starter';
import { OwnListeners } from '../outbound/own-listeners';
import { ownServiceUrls } from '../outbound/own-origin';
import { ReplayBudget } from '../domain/deliveries/replay-budget';
import { ApiWriteBudget } from '../domain/budgets/api-write-budget';
import {
  createWorkflowStarter,
  type SubmissionWorkflowStarter,
} from '../pipeline/4-start-workflow';
import { resolveAppSecret } from './app-secret';
import { createDns } from './dns';
import { createLogger } from './logger';

/** What the HTTP layer and the CLI share: configuration, storage, Temporal and DNS. */
export type AppContext = {
  config: Config;
  orm: Orm;
  logger: Logger;
  urls: PublicUrls;
  workflows: SubmissionWorkflowStarter;
  /** Stores ingest's submissions, grouping concurrent ones (src/pipeline/1-group-commit.ts). */
  submissionWriter: GroupCommit;
  /** Replays per account per minute (REPLAY_RATE), counted in PostgreSQL. */
  replayBudget: ReplayBudget;
  /** API changes per key (or per user and account) per minute (API_WRITE_RATE), in PostgreSQL. */
  apiWriteBudget: ApiWriteBudget;
  /** Starts recovery runs of failed deliveries (docs/recovery.md). */
  recoveries: RecoveryStarter;
  resolver: DnsResolver;
  /** Checks claimed custom domains and mails their owners (docs/custom-domains.md). */
  domainChecks: DomainCheckDeps;
  appSecret: string;
  /** Seals and opens webhook signing secrets with a key derived from appSecret. */
  signingSecrets: SigningSecretCipher;
  /** Seals and opens plugins' tokens and keys (src/plugins/manage/plugin-secrets.ts). */
  pluginSecrets: SigningSecretCipher;
  /** Seals and opens the secrets of forms' third-party CAPTCHAs. */
  captchaSecrets: SigningSecretCipher;
  /** Checks the CAPTCHA of a form's submissions and issues its ALTCHA challenges. */
  captcha: CaptchaVerifier;
  /** Seals and opens the one-click unsubscribe links of recipient mail. */
  unsubscribeTokens: UnsubscribeTokens;
  /** Signs the receipts of accepted submissions with the instance's keys (docs/receipts.md). */
  receipts: Receipts;
  /** Keys the addresses and networks in the ledgers of the mail caps (never the address itself). */
  addressKeys: AddressKeys;
  /** WEBHOOK_ALLOW_PRIVATE, parsed. */
  webhookAllowList: AllowList;
  /** Forms as ingest sees them, cached briefly. */
  forms: FormCache;
  /** Where this service answers; deliveries never connect there (a loop). */
  ownListeners: OwnListeners;
  /** BASE_URL, INGEST_URL and FORM_PAGES_TARGET: where this service answers (loop guards). */
  ownUrls: () => string[];
  /** Resolves a host name to all its addresses (for webhook URL checks). */
  lookupHost: (hostname: string) => Promise<string[]>;
  /** Where the bytes of uploaded files live (FILE_STORAGE_URL). */
  fileStore: FileStore;
  /** Uploads this process writes at once (UPLOAD_WRITE_CONCURRENCY). */
  uploadWrites: Semaphore;
  /** The dashboard's account mail, ALTCHA guard and rate limits. */
  accounts: AccountServices;
  /** The Temporal Web UI (TEMPORAL_UI_URL, or the embedded dev server's), for workflow links. */
  temporalUiUrl: string | null;
  /** The hourly purge's next run, read from its Temporal schedule (docs/retention.md). */
  retentionSchedule: RetentionScheduleReader;
};

export type Endpoints = {
  databaseUrl: string;
  temporalAddress: string;
  /** The embedded dev server's Web UI; TEMPORAL_UI_URL wins over it. */
  temporalUiUrl?: string | null;
};

/** Wires configuration, PostgreSQL, Temporal and DNS into the context the HTTP layer uses. */
export async function createAppContext(
  config: Config,
  endpoints: Endpoints,
): Promise<AppContext & { temporal: LazyTemporalClient; close(): Promise<void> }> {
  const logger = createLogger(config.logLevel);
  const fileStore = await createFileStore(config.fileStorage);
  // An unreachable bucket is a configuration problem: say so before serving anything.
  await fileStore.check().catch((error: Error) => {
    throw new Error(`FILE_STORAGE_URL: ${error.message}`);
  });
  const orm = await createOrm(endpoints.databaseUrl, { poolMax: config.databasePoolMax });
  const temporal = new LazyTemporalClient({
    address: endpoints.temporalAddress,
    namespace: config.temporal.namespace,
  });
  const workflows = createWorkflowStarter({
    temporal,
    orm,
    taskQueue: config.temporal.taskQueue,
    delivery: deliveryPolicy(config),
  });
  const submissionWriter = createGroupCommit(orm);
  const { resolver, lookupHost } = createDns(config.dnsServers);
  const appSecret = resolveAppSecret(config.appSecret, config.dataDir);
  // The `pg` pool under MikroORM: the rate limits and budgets count in PostgreSQL through it.
  const pool = await orm.em.getConnection().getNativeClient();
  const urls = { base: config.baseUrl, ingest: config.ingestUrl };
  // The server may move `urls` to the port it really got (http-server.ts): read it late.
  const accounts = createAccountServices({
    config,
    logger,
    appSecret,
    pool,
    baseUrl: () => urls.base,
  });
  // Every loop guard (creation and connect time) knows the same addresses of ours.
  const ownUrls = () => ownServiceUrls(urls, config.formPagesTarget);
  const ownListeners = new OwnListeners({ urls: ownUrls, lookupHost });
  const webhookAllowList = parseAllowList(config.webhook.allowPrivate);
  const captchaSecrets = new SigningSecretCipher(appSecret, 'captcha secrets v1');
  const captcha = createCaptchaVerifier({
    appSecret,
    secrets: captchaSecrets,
    verifyUrls: config.captchaVerifyUrls,
    allowList: webhookAllowList,
    lookupHost,
    ownListeners,
    pageHost: () => new URL(urls.ingest).hostname,
  });
  const exposure = devMailboxWarning(accounts.mailing.mailer.kind, config.baseUrl);
  if (exposure) logger.warn(exposure);
  return {
    config,
    orm,
    logger,
    urls,
    workflows,
    submissionWriter,
    replayBudget: new ReplayBudget(pool, config.budgets.replaysPerMinute),
    apiWriteBudget: new ApiWriteBudget(pool, config.budgets.apiWritesPerMinute),
    recoveries: createRecoveryStarter({
      temporal,
      taskQueue: config.temporal.taskQueue,
      delivery: deliveryPolicy(config),
      ratePerSecond: config.recoveryRatePerSecond,
    }),
    resolver,
    domainChecks: {
      resolver,
      appSecret,
      target: () => formPagesTarget(config.formPagesTarget, urls.ingest),
      mailer: accounts.mailing.mailer,
      logger,
      baseUrl: () => urls.base,
      verificationsPerDay: config.budgets.domainVerificationsPerDay,
      dnsChecks: new DnsCheckBudget(pool, config.budgets.dnsChecksPerMinute),
    },
    lookupHost,
    ownListeners,
    ownUrls,
    forms: new FormCache({ maxBytes: config.formCacheMaxBytes }),
    webhookAllowList,
    appSecret,
    signingSecrets: new SigningSecretCipher(appSecret),
    pluginSecrets: pluginSecretsCipher(appSecret),
    captchaSecrets,
    captcha,
    unsubscribeTokens: new UnsubscribeTokens(appSecret),
    receipts: createReceipts(orm, appSecret),
    addressKeys: new AddressKeys(appSecret),
    fileStore,
    uploadWrites: new Semaphore(config.uploadWriteConcurrency),
    accounts,
    temporalUiUrl: config.temporal.uiUrl ?? endpoints.temporalUiUrl ?? null,
    retentionSchedule: retentionScheduleReader(temporal, config.temporal.taskQueue),
    temporal,
    async close() {
      await submissionWriter.close();
      await captcha.close();
      await temporal.close();
      accounts.mailing.mailer.close();
      await accounts.oidc?.close();
      await orm.close();
    },
  };
}
