// `npm run lint`: no file reaches itself through its imports, type-only imports included
// (they are how a cycle of modules hides; eslint cannot see across files). Folder directions
// are eslint's (eslint.config.mjs).
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle of imports: move what both sides need into a file of its own',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.tmp|data)/' },
  },
};
