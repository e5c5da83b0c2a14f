import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, RECOMMENDED_MAJOR } from '../../bin/check-node.js';

const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
};

describe('the Node.js version check of bin/formward.js and `npm start`', () => {
  it('names the version needed and the one running, in one line, on a Node older than engines', () => {
    expect(nodeVersionProblem('v20.20.2', '>=22.12')).toBe(
      'formward needs Node.js 22.12 or newer (26 recommended); this is Node.js 20.20.2',
    );
    expect(nodeVersionProblem('v22.11.9', '>=22.12')).toMatch(/this is Node\.js 22\.11\.9$/);
    expect(nodeVersionProblem('v18.0.0', '>=22.12')).not.toBeNull();
    expect(nodeVersionProblem('v22.12.0', '>=22.12.1')).toMatch(/needs Node\.js 22\.12\.1 or/);
  });

  it('lets the oldest supported version and every newer one through', () => {
    for (const version of ['v22.12.0', 'v22.23.5', 'v23.0.0', 'v24.1.0', 'v26.12.1', 'v30.0.0'])
      expect(nodeVersionProblem(version, '>=22.12')).toBeNull();
  });

  it('lets a version it cannot read through rather than stand in the way', () => {
    expect(nodeVersionProblem('unknown', '>=22.12')).toBeNull();
    expect(nodeVersionProblem('v20.0.0', 'latest')).toBeNull();
  });

  it("reads the minimum of package.json's engines and recommends the runtime of scripts/node.version", () => {
    expect(packageJson.engines.node).toBe('>=22.19');
    expect(nodeVersionProblem('v22.18.0', packageJson.engines.node)).not.toBeNull();
    const runtime = readFileSync('scripts/node.version', 'utf8').split('\n')[0]!;
    expect(Number(runtime.split('.')[0])).toBe(RECOMMENDED_MAJOR);
    // The running Node (the test's own) passes: CI runs these tests on 26 and on 22.
    expect(nodeVersionProblem(process.version, packageJson.engines.node)).toBeNull();
  });
});
