import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config';

/*
 * docker-compose.yml's one PostgreSQL serves Temporal's four services and every serve and
 * worker: its max_connections must hold their pools together (docs/running.md, "Connections
 * to PostgreSQL"). PostgreSQL's default of 100 did not, and bursts failed with 53300.
 */
const root = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { command?: string[]; deploy?: { replicas?: number } }>;
};

function maxConnectionsOf(command: readonly string[] | undefined): number {
  const setting = (command ?? []).find((part) => part.startsWith('max_connections='));
  return setting ? Number(setting.split('=')[1]) : 100; // PostgreSQL's default
}

/** What config/temporal/postgresql.yaml lets Temporal's four services open at its defaults. */
function temporalConnections(): number {
  const template = read('config/temporal/postgresql.yaml');
  const main = Number(/default "(\d+)" \(env "SQL_MAX_CONNS"\)/.exec(template)?.[1]);
  expect(main).toBeGreaterThan(0);
  expect(template).toMatch(/\$visibilityConns := max 2 \(div \$maxConns 4\)/);
  return 4 * (main + Math.max(2, Math.floor(main / 4)));
}

describe('docker-compose.yml: connections to PostgreSQL', () => {
  it('holds Temporal and a few serve and worker processes at their default pools', () => {
    const limit = maxConnectionsOf(compose.services.postgres!.command);
    const perProcess = loadConfig({}).databasePoolMax + 1; // the pool and the LISTEN connection
    const formward = ['serve', 'worker']
      .map((name) => compose.services[name]!.deploy?.replicas ?? 1)
      .reduce((sum, replicas) => sum + replicas, 0);
    // Room to scale each of them out to three, and for psql, backups and migrations.
    expect(limit).toBeGreaterThanOrEqual(temporalConnections() + 3 * formward * perProcess + 10);
  });

  it('is the budget the production test suite runs', () => {
    const tested = /'max_connections=(\d+)'/.exec(
      read('test/production/support/postgres-server.ts'),
    );
    expect(maxConnectionsOf(compose.services.postgres!.command)).toBe(Number(tested?.[1]));
  });
});
