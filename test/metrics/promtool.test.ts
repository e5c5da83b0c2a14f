import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The shipped alert rules and scrape configuration pass Prometheus's own checks. Outside CI
// a machine without promtool skips them (say so); in CI (`CI` set) promtool must be there.

const run = promisify(execFile);
const DIR = path.resolve(__dirname, '../../deploy/prometheus');

async function hasPromtool(): Promise<boolean> {
  return run('promtool', ['--version']).then(
    () => true,
    () => false,
  );
}

const available = await hasPromtool();
if (!available && !process.env.CI)
  console.warn('promtool is not installed (apt-get install prometheus): the checks are skipped');

describe.skipIf(!available && !process.env.CI)('promtool', () => {
  it('accepts deploy/prometheus/alerts.yml with every rule of the contract', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', path.join(DIR, 'alerts.yml')]);
    expect(stdout).toContain('SUCCESS: 8 rules found');
  });

  it('accepts deploy/prometheus/prometheus.yml and its rule file', async () => {
    const { stdout } = await run('promtool', ['check', 'config', path.join(DIR, 'prometheus.yml')]);
    expect(stdout).toContain('SUCCESS: 1 rule files found');
    expect(stdout).toContain('is valid prometheus config file syntax');
  });
});
