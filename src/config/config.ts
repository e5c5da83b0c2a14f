import path from 'node:path';
import { z } from 'zod';
import { parseByteSize } from './byte-size';
import { parseDuration } from './duration';
import { fileStorageEnvironment } from './file-storage';
import { loadOidcSettings } from './oidc';

/**
 * The specification's webhook timings, the WEBHOOK_* defaults. Workflow code keeps the same
 * numbers (workflows/delivery-kinds.ts, for runs started without a policy); it cannot import
 * this file, and test/config/webhook-defaults.test.ts holds the two equal.
 */
export const WEBHOOK_DEFAULTS = {
  connectTimeoutMs: 3_000,
  readTimeoutMs: 5_000,
  retryInitialIntervalMs: 30_000,
  retryBackoffCoefficient: 4,
};

/** A knob whose text `parse` reads (throwing on nonsense), with a fallback text. */
const parsedText = (parse: (text: string) => number) => (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parse(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

/** A duration knob in ms; its fallback is a duration text or a number of ms. */
const duration = (fallback: string | number) => parsedText(parseDuration)(String(fallback));

/** A size knob in bytes (`512KiB`, `25MiB`, `1GiB`). */
const byteSize = parsedText(parseByteSize);

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/**
 * SQLite's `synchronous` level for the embedded Temporal dev server's file, in WAL mode
 * (docs/running.md): `normal` may lose the last commits on power loss, never on a process
 * crash; `full` loses nothing but syncs every commit; `off` can corrupt the file on power loss.
 */
const SQLITE_SYNCHRONOUS_LEVELS = ['full', 'normal', 'off'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_LEVELS)[number];

/**
 * Extra server settings for the embedded PostgreSQL, `name=value` pairs separated by commas;
 * a piece without `=` continues the value before it, so lists stay readable:
 * `shared_preload_libraries=pg_stat_statements,auto_explain,pg_stat_statements.track=all`.
 */
const postgresSettings = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const settings: Array<[name: string, value: string]> = [];
    for (const piece of text.split(',').map((part) => part.trim())) {
      if (!piece) continue;
      const eq = piece.indexOf('=');
      const last = settings.at(-1);
      if (eq < 0 && last) {
        last[1] = `${last[1]},${piece}`;
        continue;
      }
      const name = piece.slice(0, eq).trim();
      if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) {
        ctx.addIssue({ code: 'custom', message: `expected name=value, got "${piece}"` });
        return z.NEVER;
      }
      settings.push([name, piece.slice(eq + 1).trim()]);
    }
    return settings;
  });

/** A CAPTCHA siteverify URL: HTTPS, as every request through the guarded connector. */
const captchaVerifyUrl = optionalText.pipe(
  z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
);

/** The third-party plugin APIs' base URLs (docs/plugins.md). */
export type ProviderUrls = {
  googleOAuthToken: string;
  googleSheets: string;
  airtable: string;
  notion: string;
  telegram: string;
};

/** A provider's API base URL: https only, no trailing slash. */
const providerUrl = (standard: string) =>
  optionalText
    .pipe(z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional())
    .transform((url) => (url ?? standard).replace(/\/+$/, ''));

/** The environment contract of docs/running.md, validated once at start-up. */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  BASE_URL: optionalText,
  INGEST_URL: optionalText,
  DATABASE_URL: optionalText,
  /** Connections each serve or worker process keeps to PostgreSQL at most (docs/running.md). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(20),
  DATA_DIR: z.string().default('./data'),
  /** Server settings the embedded PostgreSQL starts with (above); ignored with DATABASE_URL. */
  EMBEDDED_POSTGRES_SETTINGS: postgresSettings,
  TEMPORAL_ADDRESS: optionalText,
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('formward'),
  TEMPORAL_CLI: optionalText,
  /** The embedded dev server's SQLite `synchronous` level (above). */
  TEMPORAL_DEV_SQLITE_SYNCHRONOUS: z.enum(SQLITE_SYNCHRONOUS_LEVELS).default('normal'),
  /** The Temporal Web UI, for links from the delivery log; the embedded dev server's is known. */
  TEMPORAL_UI_URL: optionalText,
  /** Workflows a worker starts: their first task straight back to that worker (docs/running.md). */
  TEMPORAL_EAGER_START: z.enum(['true', 'false']).default('true'),
  /** CPU nice of `formward start`'s worker process and of the embedded Temporal dev server (docs/running.md); 0: off. */
  WORKER_NICE: z.coerce.number().int().min(-20).max(19).default(10),
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Formward <no-reply@formward.local>'),
  /**
   * Where people report a hosted form page as abuse (docs/form-pages.md): a `mailto:` or
   * `https://` URL shown in every page's footer; unset, the footer has no report link.
   */
  ABUSE_CONTACT: optionalText.pipe(
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// URL')
      .optional(),
  ),
  APP_SECRET: optionalText,
  TRUST_PROXY: optionalText,
  WEBHOOK_CONNECT_TIMEOUT: duration(WEBHOOK_DEFAULTS.connectTimeoutMs),
  WEBHOOK_READ_TIMEOUT: duration(WEBHOOK_DEFAULTS.readTimeoutMs),
  WEBHOOK_RETRY_INITIAL_INTERVAL: duration(WEBHOOK_DEFAULTS.retryInitialIntervalMs),
  WEBHOOK_RETRY_BACKOFF_COEFFICIENT: z.coerce
    .number()
    .min(1)
    .default(WEBHOOK_DEFAULTS.retryBackoffCoefficient),
  WEBHOOK_ALLOW_PRIVATE: commaList,
  /** The providers' siteverify URLs, replaced (self-hosted proxies, tests; docs/captcha.md). */
  CAPTCHA_VERIFY_URL_TURNSTILE: captchaVerifyUrl,
  CAPTCHA_VERIFY_URL_HCAPTCHA: captchaVerifyUrl,
  CAPTCHA_VERIFY_URL_RECAPTCHA: captchaVerifyUrl,
  /** Third-party plugin APIs' base URLs, replaced for self-hosted proxies and tests (docs/plugins.md). */
  GOOGLE_OAUTH_TOKEN_URL: providerUrl('https://oauth2.googleapis.com/token'),
  GOOGLE_SHEETS_API_URL: providerUrl('https://sheets.googleapis.com'),
  AIRTABLE_API_URL: providerUrl('https://api.airtable.com'),
  NOTION_API_URL: providerUrl('https://api.notion.com'),
  TELEGRAM_API_URL: providerUrl('https://api.telegram.org'),
  /** Exhausted deliveries in a row after which a plugin is disabled (docs/endpoint-health.md). */
  PLUGIN_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(20),
  /** ... and the least time those failures must span. */
  PLUGIN_DISABLE_AFTER: duration('24h'),
  /** Re-deliveries a recovery run starts per second at most (docs/recovery.md). */
  RECOVERY_RATE: z.coerce.number().int().min(1).max(1000).default(10),
  /** Accounts one user may own (docs/teams.md); 0: no limit. */
  MAX_ACCOUNTS_PER_USER: z.coerce.number().int().min(0).default(5),
  /**
   * Forms one account may have, counted per owning user over every account they own (docs/security.md,
   * "Budgets against amplification"); 0: no limit.
   */
  MAX_FORMS_PER_ACCOUNT: z.coerce.number().int().min(0).default(500),
  /** Plugins of every type one form may have, deleted ones aside; 0: no limit. */
  MAX_PLUGINS_PER_FORM: z.coerce.number().int().min(0).default(25),
  /** Versions one submission may have through its submitter's edits (spam ones too); 0: no limit. */
  MAX_SUBMISSION_VERSIONS: z.coerce.number().int().min(0).default(50),
  /** Replays one account may start per minute, counted per owning user, across every serve process; 0: no limit. */
  REPLAY_RATE: z.coerce.number().int().min(0).default(30),
  /**
   * Changes (POST, PATCH, DELETE under /api) one API key, or one user's dashboard session in
   * one account, may make per minute, across every serve process; 0: no limit.
   */
  API_WRITE_RATE: z.coerce.number().int().min(0).default(120),
  /** API keys one account may hold, revoked ones aside (docs/api-keys.md); 0: no limit. */
  MAX_API_KEYS_PER_ACCOUNT: z.coerce.number().int().min(0).default(50),
  /**
   * Custom domains one owning user may verify per 24 hours, summed over the accounts they own;
   * deleting a domain does not give one back (docs/custom-domains.md); 0: no cap.
   */
  DOMAIN_VERIFICATIONS_PER_DAY: z.coerce.number().int().min(0).default(10),
  /** DNS checks on demand (claims, "Verify now") per owning user per minute; 0: no limit. */
  DNS_CHECK_RATE_ACCOUNT: z.coerce.number().int().min(0).default(20),
  /** Public verify_domain checks per client network (IPv4 address, IPv6 /64) per minute; 0: no limit. */
  DNS_CHECK_RATE_NETWORK: z.coerce.number().int().min(0).default(20),
  /** DNS checks on demand of everyone together per minute, across every serve process; 0: no limit. */
  DNS_CHECK_RATE_INSTANCE: z.coerce.number().int().min(0).default(300),
  /**
   * Submission mails (one per recipient) an account may send per hour, counted per owning
   * user over every account they own (docs/security.md, "Recipients and mail").
   */
  ACCOUNT_MAIL_PER_HOUR: z.coerce.number().int().min(0).default(1000),
  /** Invitations an account may send per hour, counted per owning user (docs/teams.md); 0: no cap. */
  INVITATIONS_PER_HOUR: z.coerce.number().int().min(0).default(20),
  /**
   * Invitation mails one address may get per day from all accounts together, re-invitations
   * included (docs/teams.md); 0: no cap.
   */
  INVITATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(0).default(3),
  /** At most one autoresponse per form and address in this time (docs/autoresponse.md). */
  AUTORESPONSE_INTERVAL: duration('24h'),
  /** Autoresponses one address may get per AUTORESPONSE_INTERVAL from all forms; 0: no cap. */
  AUTORESPONSE_PER_ADDRESS: z.coerce.number().int().min(0).default(5),
  /** Autoresponses one client network may cause per hour across all forms; 0: no cap. */
  AUTORESPONSE_PER_CLIENT: z.coerce.number().int().min(0).default(20),
  /** Submission workflows one serve process starts ahead of the workers (docs/running.md). */
  ADMISSION_WINDOW: z.coerce.number().int().min(1).max(10_000).default(256),
  /** Ingest submissions allowed per client IP and form per minute; 0 turns the limit off. */
  INGEST_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
  /** Request bytes allowed per client per minute across forms; 0 turns the limit off. */
  INGEST_RATE_LIMIT_BYTES: byteSize('64MiB'),
  /** Bytes one list answer may reach before its page is cut short (one item always comes). */
  LIST_MAX_BYTES: byteSize('4MiB'),
  /** Bytes (estimated) of form snapshots one process keeps for ingest and pages. */
  FORM_CACHE_MAX_BYTES: byteSize('32MiB'),
  /** Bytes of rendered hosted pages one process keeps, one per form version and path. */
  FORM_PAGE_CACHE_MAX_BYTES: byteSize('16MiB'),
  /** Hosted page GETs allowed per client network per minute; 0 turns the limit off. */
  FORM_PAGE_RATE: z.coerce.number().int().min(0).default(120),
  /** Manage-link requests (view, edit, delete) per client network per minute; 0: off. */
  MANAGE_LINK_RATE: z.coerce.number().int().min(0).default(30),
  /** Bytes of uploaded files one form may keep; 0 turns the quota off. */
  FILE_QUOTA_PER_FORM: byteSize('1GiB'),
  /**
   * Bytes of uploaded files one account may keep across its forms, counted per owning user
   * over every account they own; 0 turns the quota off.
   */
  FILE_QUOTA_PER_ACCOUNT: byteSize('5GiB'),
  /** Submissions with files one process writes into PostgreSQL at once (docs/running.md). */
  UPLOAD_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  /** Days spam submissions are kept in every form before the hourly purge deletes them (docs/retention.md). */
  SPAM_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Days audit log entries are kept before the hourly purge deletes them (docs/audit-log.md). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  /** How often each serve process deletes the objects of deleted files (docs/running.md). */
  SWEEPER_INTERVAL: duration('5s'),
  /** A dashboard session unused for this long is refused (besides its 14-day lifetime). */
  SESSION_IDLE_TIMEOUT: duration('12h'),
  /** Password hashes (scrypt, 128 MiB each) running at once; 0: half of UV_THREADPOOL_SIZE. */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(0),
  /** Upstream DNS servers for domain verification and webhook address checks (comma list, host[:port]). */
  DNS_SERVERS: commaList,
  /**
   * The public host custom domains point at with a CNAME (or A/AAAA records with its addresses);
   * default the INGEST_URL host (docs/custom-domains.md).
   */
  FORM_PAGES_TARGET: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9.:-]+$/, 'must be a bare host name such as pages.example.com')
      .transform((value) => value.toLowerCase().replace(/\.$/, ''))
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The metrics listener (docs/metrics.md): off unless a port is given; 0 picks a free one. */
  METRICS_PORT: optionalText.pipe(
    z.coerce.number<string | undefined>().int().min(0).max(65535).optional(),
  ),
  METRICS_HOST: z.string().default('127.0.0.1'),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = environmentSchema.safeParse(env);
  const storage = fileStorageEnvironment.safeParse(env);
  if (!parsed.success || !storage.success) {
    const issues = [...(parsed.error?.issues ?? []), ...(storage.error?.issues ?? [])];
    const problems = issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const localUrl = `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl: stripSlash(e.BASE_URL ?? localUrl),
    ingestUrl: stripSlash(e.INGEST_URL ?? e.BASE_URL ?? localUrl),
    /** True when BASE_URL was not given: links follow the port actually bound. */
    urlsFollowPort: !e.BASE_URL && !e.INGEST_URL,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    embeddedPostgresSettings: e.EMBEDDED_POSTGRES_SETTINGS,
    dataDir,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      cliPath: e.TEMPORAL_CLI,
      devSqliteSynchronous: e.TEMPORAL_DEV_SQLITE_SYNCHRONOUS,
      uiUrl: e.TEMPORAL_UI_URL ? stripSlash(e.TEMPORAL_UI_URL) : undefined,
      eagerStart: e.TEMPORAL_EAGER_START === 'true',
    },
    worker: { nice: e.WORKER_NICE },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    abuseContact: e.ABUSE_CONTACT ?? null,
    appSecret: e.APP_SECRET,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webhook: {
      connectTimeoutMs: e.WEBHOOK_CONNECT_TIMEOUT,
      readTimeoutMs: e.WEBHOOK_READ_TIMEOUT,
      retryInitialIntervalMs: e.WEBHOOK_RETRY_INITIAL_INTERVAL,
      retryBackoffCoefficient: e.WEBHOOK_RETRY_BACKOFF_COEFFICIENT,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    },
    providerUrls: {
      googleOAuthToken: e.GOOGLE_OAUTH_TOKEN_URL,
      googleSheets: e.GOOGLE_SHEETS_API_URL,
      airtable: e.AIRTABLE_API_URL,
      notion: e.NOTION_API_URL,
      telegram: e.TELEGRAM_API_URL,
    },
    captchaVerifyUrls: {
      turnstile: e.CAPTCHA_VERIFY_URL_TURNSTILE,
      hcaptcha: e.CAPTCHA_VERIFY_URL_HCAPTCHA,
      recaptcha: e.CAPTCHA_VERIFY_URL_RECAPTCHA,
    },
    pluginHealth: {
      disableAfterFailures: e.PLUGIN_DISABLE_AFTER_FAILURES,
      disableAfterMs: e.PLUGIN_DISABLE_AFTER,
    },
    recoveryRatePerSecond: e.RECOVERY_RATE,
    budgets: {
      accountsPerUser: e.MAX_ACCOUNTS_PER_USER,
      formsPerAccount: e.MAX_FORMS_PER_ACCOUNT,
      pluginsPerForm: e.MAX_PLUGINS_PER_FORM,
      versionsPerSubmission: e.MAX_SUBMISSION_VERSIONS,
      replaysPerMinute: e.REPLAY_RATE,
      apiWritesPerMinute: e.API_WRITE_RATE,
      apiKeysPerAccount: e.MAX_API_KEYS_PER_ACCOUNT,
      domainVerificationsPerDay: e.DOMAIN_VERIFICATIONS_PER_DAY,
      dnsChecksPerMinute: {
        account: e.DNS_CHECK_RATE_ACCOUNT,
        network: e.DNS_CHECK_RATE_NETWORK,
        instance: e.DNS_CHECK_RATE_INSTANCE,
      },
    },
    accountMailPerHour: e.ACCOUNT_MAIL_PER_HOUR,
    invitationsPerHour: e.INVITATIONS_PER_HOUR,
    invitationsPerAddressPerDay: e.INVITATIONS_PER_ADDRESS_PER_DAY,
    autoresponseIntervalMs: e.AUTORESPONSE_INTERVAL,
    autoresponseCaps: {
      perAddress: e.AUTORESPONSE_PER_ADDRESS,
      perClientHour: e.AUTORESPONSE_PER_CLIENT,
    },
    admissionWindow: e.ADMISSION_WINDOW,
    ingestRateLimitPerMinute: e.INGEST_RATE_LIMIT,
    ingestRateLimitBytesPerMinute: e.INGEST_RATE_LIMIT_BYTES,
    listMaxBytes: e.LIST_MAX_BYTES,
    formCacheMaxBytes: e.FORM_CACHE_MAX_BYTES,
    formPageCacheMaxBytes: e.FORM_PAGE_CACHE_MAX_BYTES,
    formPageRatePerMinute: e.FORM_PAGE_RATE,
    manageLinkRatePerMinute: e.MANAGE_LINK_RATE,
    fileQuota: { perFormBytes: e.FILE_QUOTA_PER_FORM, perAccountBytes: e.FILE_QUOTA_PER_ACCOUNT },
    fileStorage: storage.data,
    uploadWriteConcurrency: e.UPLOAD_WRITE_CONCURRENCY,
    spamRetentionDays: e.SPAM_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    sweeperIntervalMs: e.SWEEPER_INTERVAL,
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT,
    /** Single sign-on (OIDC_*), or null. */
    oidc: loadOidcSettings(env),
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY,
    dnsServers: e.DNS_SERVERS,
    /** FORM_PAGES_TARGET; null: the host of the ingest URL (read late, it may follow the port). */
    formPagesTarget: e.FORM_PAGES_TARGET ?? null,
    logLevel: e.LOG_LEVEL,
    /** The metrics listener, or null when METRICS_PORT is unset. */
    metrics: e.METRICS_PORT === undefined ? null : { host: e.METRICS_HOST, port: e.METRICS_PORT },
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** TRUST_PROXY follows Express's `trust proxy`: `true`, a hop count, or a list of addresses. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
