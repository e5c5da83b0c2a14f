import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** The versitygw binary (scripts/versitygw.sh: $VERSITYGW, the cache, or a `go install`). */
function versitygwPath(): string {
  const script = path.resolve(__dirname, '../../scripts/versitygw.sh');
  return execFileSync('bash', [script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something answers HTTP on `url` (any status), within `timeoutMs`. */
async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A real S3-compatible server for a suite: versitygw's posix gateway on 127.0.0.1, one
 * bucket, throwaway credentials. `stop` and `start` again keep the port and the objects.
 */
export async function startS3Server() {
  const binary = versitygwPath();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-s3-'));
  const bucket = 'formward-test';
  fs.mkdirSync(path.join(root, bucket)); // the posix backend's buckets are directories
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(18).toString('hex');
  let child: ChildProcess | null = null;

  const start = async () => {
    const args = ['--access', accessKeyId, '--secret', secretAccessKey];
    args.push('--port', `127.0.0.1:${port}`, '--quiet', 'posix', root);
    const started = spawn(binary, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child = started;
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code) => reject(new Error(`versitygw exited with ${code}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForHttp(endpoint, 15_000), exited]);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });

  await start();
  return {
    endpoint,
    bucket,
    /** The environment that points a stack's FILE_STORAGE_URL at this server. */
    env(prefix = 'uploads'): Record<string, string> {
      return {
        FILE_STORAGE_URL: `s3://${bucket}/${prefix}?endpoint=${endpoint}&region=us-east-1&force_path_style=true`,
        AWS_ACCESS_KEY_ID: accessKeyId,
        AWS_SECRET_ACCESS_KEY: secretAccessKey,
      };
    },
    /** Every key in the bucket (through the S3 API), sorted. */
    async keys(): Promise<string[]> {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    start,
    stop,
    async close() {
      await stop();
      client.destroy();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export type S3Server = Awaited<ReturnType<typeof startS3Server>>;
