#!/usr/bin/env node
// The Node.js version check that runs before anything else is loaded (bin/formward.js, and
// `npm start` before its build): an older Node gets one clear line and exit status 1 instead of
// a stack trace from some later syntax or API. Plain CommonJS, so that old Node still parses it.
'use strict';

// The oldest supported version is package.json's `engines` (">=22.19"); the recommended line
// is the runtime of the image and of CI (the first line of scripts/node.version).
const RECOMMENDED_MAJOR = 26;

/** [major, minor, patch] of "v20.20.2", "22.12" or ">=22.12"; null when it is none of those. */
function parseVersion(text) {
  const match = /^(?:>=\s*)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(text).trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function isOlder(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/**
 * The line to print when `version` (as in `process.version`) is older than `minimum` (as in
 * `engines.node`), else null. A version that cannot be read is let through: the check is
 * there to explain, not to stand in the way.
 */
function nodeVersionProblem(version, minimum) {
  const running = parseVersion(version);
  const needed = parseVersion(minimum);
  if (!running || !needed || !isOlder(running, needed)) return null;
  const neededText = needed[2] === 0 ? `${needed[0]}.${needed[1]}` : needed.join('.');
  return (
    `formward needs Node.js ${neededText} or newer (${RECOMMENDED_MAJOR} recommended); ` +
    `this is Node.js ${running.join('.')}`
  );
}

/** Prints the line and exits 1 on a Node older than package.json's `engines.node`. */
function exitOnOldNode() {
  const problem = nodeVersionProblem(process.version, require('../package.json').engines.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

module.exports = { nodeVersionProblem, exitOnOldNode, RECOMMENDED_MAJOR };

if (require.main === module) exitOnOldNode();
