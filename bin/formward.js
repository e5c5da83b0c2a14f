#!/usr/bin/env node
// Entry point of the `formward` CLI: runs the compiled TypeScript in dist/.
require('../dist/src/cli.js').main(process.argv.slice(2));
