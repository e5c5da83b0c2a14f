// Installs the client package's own dependencies (client/node_modules) when they are missing
// or older than client/package-lock.json: the root's type check and tests import the client
// (docs/client.md), and a plain `npm install` at the root does not install them. Run before
// `npm test`, `npm run test:unit`, `npm run test:integration` and `npm run lint`.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const client = path.join(import.meta.dirname, '..', 'client');
const lock = path.join(client, 'package-lock.json');
const installed = path.join(client, 'node_modules', '.package-lock.json');

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : null);
const installedAt = mtime(installed);
if (installedAt === null || installedAt < mtime(lock)) {
  console.log('installing the client package dependencies (npm ci in client/)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: client,
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
