import fs from 'node:fs';
import path from 'node:path';

/** What a running `formward start` tells later CLI invocations about its embedded services. */
export type RuntimeInfo = {
  pid: number;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  baseUrl: string;
  ingestUrl: string;
  startedAt: string;
};

const fileOf = (dataDir: string) => path.join(dataDir, 'runtime.json');

export function writeRuntimeFile(dataDir: string, info: RuntimeInfo): void {
  fs.writeFileSync(fileOf(dataDir), JSON.stringify(info, null, 2), { mode: 0o600 });
}

/** The running instance's details, or null when none runs (a stale file is ignored). */
export function readRuntimeFile(dataDir: string): RuntimeInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as RuntimeInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

export function removeRuntimeFile(dataDir: string): void {
  fs.rmSync(fileOf(dataDir), { force: true });
}
