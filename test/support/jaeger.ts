import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../../src/embedded/free-port';
import type { ReceivedSpan } from './otlp-receiver';

// Jaeger v2 (an OpenTelemetry Collector distribution): its OTLP/HTTP receiver, in-memory
// storage and query HTTP API, every listener on 127.0.0.1. scripts/jaeger.sh builds the binary.

const VERSION = '1.76.0';
const STOP_GRACE_MS = 5_000;

/** The Jaeger binary: $JAEGER, else scripts/jaeger.sh's cache; null when neither is there. */
export function jaegerBinary(): string | null {
  const home = process.env.HOME ?? os.homedir();
  const cache = process.env.XDG_CACHE_HOME ?? path.join(home, '.cache');
  const candidates = [process.env.JAEGER, path.join(cache, `formward/jaeger-${VERSION}/jaeger`)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** The collector configuration: only OTLP/HTTP in, memory storage, the query API; no telemetry. */
function configYaml(ports: { otlp: number; queryHttp: number; queryGrpc: number }): string {
  return `
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memory_store:
        memory:
          max_traces: 10000
  jaeger_query:
    storage:
      traces: memory_store
    http:
      endpoint: 127.0.0.1:${ports.queryHttp}
    grpc:
      endpoint: 127.0.0.1:${ports.queryGrpc}
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${ports.otlp}
exporters:
  jaeger_storage_exporter:
    trace_storage: memory_store
`;
}

/** A span as Jaeger's query API (`/api/traces`) returns it. */
type JaegerSpan = {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references?: Array<{ refType: string; traceID: string; spanID: string }>;
  tags?: Array<{ key: string; value: unknown }>;
};
type JaegerTrace = {
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
};

// OTLP's SpanKind numbers, as test/support/otlp-receiver.ts gives them; Jaeger names them.
const KINDS: Record<string, number> = {
  internal: 1,
  server: 2,
  client: 3,
  producer: 4,
  consumer: 5,
};

/** Jaeger's span in the receiver's shape, so that both tests share their expectations. */
function received(span: JaegerSpan, trace: JaegerTrace): ReceivedSpan {
  const attributes = Object.fromEntries(
    (span.tags ?? []).map(({ key, value }) => [key, String(value)]),
  );
  const parent = span.references?.find(
    (reference) => reference.refType === 'CHILD_OF' && reference.traceID === span.traceID,
  );
  return {
    traceId: span.traceID,
    spanId: span.spanID,
    parentSpanId: parent?.spanID ?? '',
    name: span.operationName,
    kind: KINDS[attributes['span.kind'] ?? 'internal'] ?? 0,
    service: trace.processes[span.processID]?.serviceName ?? '',
    attributes,
    // Jaeger keeps an OTLP link as a FOLLOWS_FROM reference.
    links: (span.references ?? [])
      .filter((reference) => reference.refType === 'FOLLOWS_FROM')
      .map((reference) => ({ traceId: reference.traceID, spanId: reference.spanID })),
  };
}

/** Starts Jaeger on free ports of 127.0.0.1 and resolves once both its APIs answer. */
export async function startJaeger(binary: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-jaeger-'));
  const ports = {
    otlp: await freePort(),
    queryHttp: await freePort(),
    queryGrpc: await freePort(),
  };
  const config = path.join(dir, 'jaeger.yaml');
  fs.writeFileSync(config, configYaml(ports));
  const startedAt = Date.now();
  let log = '';
  const child: ChildProcess = spawn(binary, ['--config', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  // A test run that dies leaves no Jaeger behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const queryUrl = `http://127.0.0.1:${ports.queryHttp}`;

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(escalate);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    const died = exited.then(() => {
      throw new Error(`jaeger exited while starting: ${log}`);
    });
    died.catch(() => undefined);
    await Promise.race([
      (async () => {
        await waitForPort(ports.otlp, '127.0.0.1', 30_000);
        await waitForPort(ports.queryHttp, '127.0.0.1', 30_000);
        const answer = await fetch(`${queryUrl}/api/services`);
        if (!answer.ok) throw new Error(`jaeger's query API answered ${answer.status}`);
      })(),
      died,
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  // Read at start only: nothing is left in /tmp even when a failed run never calls stop.
  fs.rmSync(dir, { recursive: true, force: true });

  return {
    /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT (spans go to /v1/traces). */
    otlpUrl: `http://127.0.0.1:${ports.otlp}`,
    queryUrl,
    /** Every span of `service` Jaeger has stored (from its query API), in the receiver's shape. */
    async spans(service: string): Promise<ReceivedSpan[]> {
      const query = new URLSearchParams({
        service,
        limit: '1000',
        start: String((startedAt - 60_000) * 1000), // microseconds
      });
      const answer = await fetch(`${queryUrl}/api/traces?${query}`);
      if (!answer.ok) throw new Error(`jaeger's /api/traces answered ${answer.status}`);
      const { data } = (await answer.json()) as { data: JaegerTrace[] | null };
      return (data ?? []).flatMap((trace) => trace.spans.map((span) => received(span, trace)));
    },
    stop,
  };
}

export type Jaeger = Awaited<ReturnType<typeof startJaeger>>;
