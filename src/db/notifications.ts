import { Client } from 'pg';
import type { Logger } from 'pino';
import type { Orm } from './orm';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export type Listening = { stop(): Promise<void> };

/**
 * LISTENs to `channel` on a connection of its own (a pooled one would be handed to other
 * work): `onNotify` runs on every notification, and once on each (re)connect, since what was
 * notified while the connection was down is lost. A lost connection is opened again, waiting
 * from 0.5 s doubling up to 10 s; the caller polls as a backstop meanwhile.
 */
export function listenTo(
  orm: Orm,
  channel: string,
  onNotify: () => void,
  logger: Logger,
): Listening {
  const config = orm.config;
  let client: Client | null = null;
  let stopped = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;
  let failing = false; // one warning per outage

  const reconnectLater = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  const connect = async () => {
    const next = new Client({
      connectionString: config.get('clientUrl'),
      // The embedded PostgreSQL's socket folder (orm.ts reads it from the URL the same way).
      ...(config.get('host') ? { host: config.get('host') } : {}),
    });
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (!stopped && !failing)
        logger.warn({ err: error?.message, channel }, 'notification connection lost');
      failing = true;
      reconnectLater();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', () => onNotify());
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      next.removeAllListeners();
      next.on('error', () => undefined);
      await next.end().catch(() => undefined);
      if (!failing) logger.warn({ err: (error as Error).message, channel }, 'cannot listen');
      failing = true;
      reconnectLater();
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    failing = false;
    retryMs = RETRY_FIRST_MS;
    onNotify();
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
