import { Client, Connection } from '@temporalio/client';
import { tracingClientInterceptors } from '../tracing/trace-hooks';

/**
 * A Temporal client that connects on first use and reconnects after a failure, so the HTTP
 * server starts (and keeps taking submissions) while Temporal is down.
 */
export class LazyTemporalClient {
  private pending: Promise<Client> | null = null;
  private connection: Connection | null = null;

  constructor(private readonly options: { address: string; namespace: string }) {}

  async get(): Promise<Client> {
    this.pending ??= Connection.connect({
      address: this.options.address,
      connectTimeout: '3s',
    }).then(
      (connection) => {
        this.connection = connection;
        return new Client({
          connection,
          namespace: this.options.namespace,
          interceptors: { workflow: tracingClientInterceptors() },
        });
      },
      (error: unknown) => {
        this.pending = null;
        throw error;
      },
    );
    return this.pending;
  }

  /** Runs a call with a deadline so an unreachable server fails fast instead of hanging. */
  async call<T>(timeoutMs: number, fn: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.get();
    return client.connection.withDeadline(Date.now() + timeoutMs, () => fn(client));
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.pending = null;
    this.connection = null;
    await connection?.close();
  }
}
