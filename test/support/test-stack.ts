import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Client } from 'pg';
import { loadConfig } from '../../src/config/config';
import { migrate } from '../../src/db/orm';
import { createAccount } from '../../src/domain/accounts/accounts';
import type { MemberRole } from '../../src/domain/accounts/member-roles';
import { openSession } from '../../src/domain/accounts/sessions';
import { Membership } from '../../src/db/entities';
import { sessionCookieName } from '../../src/http/kit/session/cookies';
import { createApiKey } from '../../src/domain/accounts/api-keys';
import { ROLES, type Scope } from '../../src/domain/accounts/scopes';
import { createAppContext } from '../../src/runtime/app-context';
import { startHttpServer } from '../../src/http/http-server';
import { startMetricsListener } from '../../src/runtime/metrics/metrics-listener';
import type { Dial } from '../../src/outbound/guarded-connector';
import { runWorker, type RunningWorker } from '../../src/runtime/worker-runner';
import { retentionScheduleId } from '../../src/temporal/retention-schedule';
import { sharedStack } from './shared-stack';

export type TestStackOptions = {
  /** Run a Temporal worker in this process (needed when workflows must actually run). */
  worker?: boolean;
  /** Extra environment for loadConfig (e.g. INGEST_RATE_LIMIT). */
  env?: Record<string, string>;
  /** Point at another Temporal server than the shared one (e.g. one the test stops). */
  temporalAddress?: string;
  /** Create the stack's database on this PostgreSQL instead of the shared one (outage tests). */
  postgresUrl?: string;
  /** Replaces the worker's TLS dialer for webhook deliveries (connect-timeout tests). */
  dial?: Dial;
};

/** Creates an empty database on the shared PostgreSQL and returns its URL. */
export async function createTestDatabase(databaseUrl = sharedStack().databaseUrl): Promise<string> {
  const name = `formward_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The real service in this process: its own database and task queue on the shared
 * PostgreSQL and Temporal, an HTTP server on 127.0.0.1 with a random port, and optionally a worker.
 */
export async function startTestStack(options: TestStackOptions = {}) {
  const stack = sharedStack();
  const databaseUrl = await createTestDatabase(options.postgresUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-stack-'));
  const taskQueue = `formward-test-${randomBytes(4).toString('hex')}`;
  const temporalAddress = options.temporalAddress ?? stack.temporalAddress;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    INGEST_RATE_LIMIT: '0',
    INGEST_RATE_LIMIT_BYTES: '0',
    FORM_PAGE_RATE: '0',
    MANAGE_LINK_RATE: '0',
    SWEEPER_INTERVAL: '500ms',
    ...options.env,
  });
  const ctx = await createAppContext(config, { databaseUrl, temporalAddress });
  await migrate(ctx.orm);
  // Every stack shares one Temporal server, and workflow ids are `submission-{id}` and
  // `recovery-{id}`: each database numbers its submissions and recovery runs from a random
  // offset so two stacks never share an id.
  for (const sequence of ['submissions_id_seq', 'plugin_recoveries_id_seq']) {
    const offset = 1_000_000 + Math.floor(Math.random() * 1_000_000_000_000);
    await ctx.orm.em.getConnection().execute(`alter sequence ${sequence} restart with ${offset}`);
  }
  // With METRICS_PORT in `env`: the metrics listener, before a worker takes its label.
  const metrics = config.metrics
    ? await startMetricsListener({
        ...config.metrics,
        process: 'serve',
        orm: ctx.orm,
        temporal: ctx.temporal,
        logger: ctx.logger,
      })
    : null;
  const http = await startHttpServer(ctx);
  const workers: RunningWorker[] = [];
  /** Runs a Temporal worker for this stack in this process (stop() stops it). */
  const startWorker = async () => {
    const worker = await runWorker(ctx, { address: temporalAddress, dial: options.dial });
    workers.push(worker);
    return worker;
  };
  if (options.worker) await startWorker();

  const createKey = async (accountId: string, scopes: Scope[] | 'admin' | 'readonly') => {
    const role = typeof scopes === 'string' ? scopes : null;
    const list = typeof scopes === 'string' ? [...ROLES[scopes]] : scopes;
    return (await createApiKey(ctx.orm.em.fork(), { accountId, scopes: list, role }, 0)).key;
  };

  return {
    url: http.url,
    /** `http://127.0.0.1:port/metrics` when METRICS_PORT was given, else null. */
    metricsUrl: metrics?.url ?? null,
    ctx,
    config,
    databaseUrl,
    taskQueue,
    temporalAddress,
    /** A fresh account with a user (password `correct horse battery`) and an admin key. */
    async createAccount(email = `user-${randomBytes(4).toString('hex')}@example.com`) {
      const { account } = await createAccount(ctx.orm.em.fork(), {
        email,
        password: 'correct horse battery',
      });
      return {
        accountId: account.id,
        email,
        password: 'correct horse battery',
        adminKey: await createKey(account.id, 'admin'),
      };
    },
    createKey,
    /**
     * A new user (with an account of their own, as every sign-up has) who is also a member of
     * `accountId` with `role`, and a session acting there: its cookie and CSRF token.
     */
    async addMember(accountId: string, role: MemberRole) {
      const email = `member-${randomBytes(4).toString('hex')}@example.com`;
      const em = ctx.orm.em.fork();
      const { user } = await createAccount(em, { email, password: 'correct horse battery' });
      em.create(Membership, { accountId, userId: user.id, role });
      await em.flush();
      const opened = (await openSession(em, user, accountId))!;
      const cookie = `${sessionCookieName(http.url)}=${opened.token}`;
      return { userId: user.id, email, cookie, csrf: opened.session.csrfToken };
    },
    startWorker,
    /** Runs SQL against this stack's database. */
    async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
      return ctx.orm.em.getConnection().execute<T[]>(text, params);
    },
    async stop() {
      const hadWorker = workers.length > 0;
      for (const worker of workers.splice(0)) await worker.stop();
      // Its workers created this stack's hourly purge schedule: the shared server keeps no
      // schedule firing at a task queue nobody polls any more.
      if (hadWorker) await deleteRetentionSchedule(temporalAddress, taskQueue);
      await http.close();
      await metrics?.close();
      await ctx.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestStack = Awaited<ReturnType<typeof startTestStack>>;

/** Deletes a stack's retention schedule, if its workers created one (best effort). */
async function deleteRetentionSchedule(address: string, taskQueue: string): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: '3s' }).catch(() => null);
  if (!connection) return;
  try {
    await new TemporalClient({ connection }).schedule
      .getHandle(retentionScheduleId(taskQueue))
      .delete()
      .catch(() => undefined);
  } finally {
    await connection.close();
  }
}
