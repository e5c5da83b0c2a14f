#!/usr/bin/env node
// Entry point of the `formward` CLI: runs the compiled TypeScript in dist/, after checking the
// Node.js version (before anything that an older Node could not load).
require('./check-node.js').exitOnOldNode();
require('../dist/src/cli.js').main(process.argv.slice(2));
