// Lint rules: typescript-eslint's recommended set over every TypeScript source, promises that
// are awaited or handled (type-aware), the direction of the layers (src/http -> src/domain ->
// src/db; src/runtime builds the context below them, src/cli starts it all), and workflow code
// that stays deterministic. Cycles between files: .dependency-cruiser.mjs (`npm run lint`).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Forbids imports of the given src/ folders (any relative depth), type-only ones included. */
const layerRule = (folders, message) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: `^(\\.{1,2}/)+(src/)?(${folders.join('|')})(/|$)`,
          message,
        },
      ],
    },
  ],
});

/** Every folder of ours that sends, stores or serves: what src/outbound and src/config are below. */
const EVERY_LAYER = [
  'domain',
  'plugins',
  'db',
  'http',
  'runtime',
  'cli',
  'temporal',
  'pipeline',
  'workflows',
  'activities',
];

/** The plugin types' folders under src/plugins (their keys are in workflows/delivery-kinds.ts). */
const PLUGIN_TYPE_FOLDERS = [
  'webhook',
  'email',
  'slack',
  'discord',
  'teams',
  'telegram',
  'google-sheets',
  'airtable',
  'notion',
];

/**
 * No code outside a type's own folder compares a plugin type's name: what a type can do is a
 * hook or a fact of its declaration (src/plugins/plugin-type.ts). `email` is also a field
 * type, so it is caught only where a plugin's type is compared.
 */
const noPluginTypeBranch = {
  'no-restricted-syntax': [
    'error',
    ...['BinaryExpression[operator=/^[!=]==$/]', 'SwitchCase'].flatMap((at) => [
      {
        selector: `${at} > Literal[value=/^(webhook|slack|discord|teams|telegram|google_sheets|airtable|notion)$/]`,
        message: 'a branch on a plugin type name: use a hook or fact of its declaration',
      },
    ]),
    {
      selector:
        'BinaryExpression[operator=/^[!=]==$/]:has(MemberExpression[property.name=/^(pluginType|plugin_type)$/]) > Literal',
      message: 'a branch on a plugin type name: use a hook or fact of its declaration',
    },
  ],
};

/** The folders of src/http beside src/http/kit: its areas and the files that assemble them. */
const HTTP_AREAS = [
  'ingest',
  'forms',
  'submissions',
  'plugins',
  'domains',
  'account',
  'stats',
  'docs',
  'routes',
  'app',
  'health',
  'http-server',
];

/**
 * src/http/kit/ imports no area of src/http (an area is `../<area>` from kit/ itself,
 * `../../<area>` from a folder of kit/; src/plugins, three levels up, is another thing), and
 * like all of src/http not src/db.
 */
const kitRule = () => {
  const areas = HTTP_AREAS.join('|');
  const message = 'src/http/kit is shared by the areas of src/http: it must not import them';
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(\\.{1,2}/)+(src/)?(db)(/|$)',
            message: 'src/http reaches the database through src/domain',
          },
          { regex: `^\\.\\./(\\.\\./)?(${areas})(/|$)`, message },
        ],
      },
    ],
  };
};

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.tmp/**',
      // The client package's build output and its types generated from the OpenAPI document.
      'client/dist/**',
      'client/src/generated/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // tsconfig.test.json covers every TypeScript file: sources, tests, scripts and bench.
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: layerRule(['db'], 'src/http reaches the database through src/domain'),
  },
  {
    files: ['src/**/*.ts', 'activities/**/*.ts'],
    ignores: [...PLUGIN_TYPE_FOLDERS.map((folder) => `src/plugins/${folder}/**`), '**/*.test.ts'],
    rules: noPluginTypeBranch,
  },
  {
    // src/http/kit is the machinery the areas share: the areas and src/http/routes.ts import
    // it, never the reverse. template-data.ts is the one exception: it names the views each
    // template takes (type imports, docs/architecture.md "The HTTP layer, by area").
    files: ['src/http/kit/**/*.ts'],
    ignores: ['src/http/kit/chrome/template-data.ts'],
    rules: kitRule(),
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli', 'temporal', 'pipeline', 'app-context', 'plugins'],
      'src/domain is below src/http, src/runtime, src/cli, src/temporal, src/pipeline and src/plugins: it must not import them',
    ),
  },
  {
    files: ['src/db/**/*.ts'],
    rules: layerRule(
      ['domain', 'plugins', 'http', 'runtime', 'cli', 'temporal'],
      'src/db is the bottom layer: it must not import the layers above it',
    ),
  },
  {
    files: ['src/temporal/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli'],
      'src/temporal (client, starter, worker) is below src/http, src/runtime and src/cli',
    ),
  },
  {
    files: ['src/pipeline/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli'],
      'src/pipeline (the start of submission workflows) is below src/http, src/runtime and src/cli',
    ),
  },
  {
    files: ['activities/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli', 'temporal'],
      'activities get their dependencies from createActivities(deps): no src/http, src/runtime, src/cli or src/temporal',
    ),
  },
  {
    // A plugin type's folder (declaration, builders, delivery) and what all types share: below
    // src/http and the processes; activities/ assembles the deliveries from here, not the reverse.
    files: ['src/plugins/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli', 'temporal', 'pipeline', 'activities'],
      'src/plugins is below src/http, src/runtime, src/cli, src/temporal and src/pipeline, and activities/ imports it (not the reverse)',
    ),
  },
  {
    files: ['src/outbound/**/*.ts'],
    rules: layerRule(
      EVERY_LAYER,
      'src/outbound (every outbound HTTP request) is below everything that sends: it imports none of them',
    ),
  },
  {
    files: ['src/runtime/**/*.ts'],
    rules: layerRule(
      ['http', 'cli'],
      'src/runtime builds the context src/http and src/cli use: it must not import them',
    ),
  },
  {
    // The catalogue of the hosted pages' texts (docs/languages.md): read by src/http, pure text.
    files: ['src/i18n/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: layerRule(
      EVERY_LAYER,
      'src/i18n (languages and their messages) is read by src/http: it imports none of the layers',
    ),
  },
  {
    files: ['src/config/**/*.ts'],
    rules: layerRule(
      EVERY_LAYER,
      'src/config is read by every layer: it imports none of them (workflow code keeps its own copy of a default)',
    ),
  },
  {
    // Workflow code is replayed: it imports types and pure helpers of its own folder only (the SDK's sandbox
    // would refuse Node built-ins at run time; this says so at lint time).
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: builtinModules.flatMap((name) =>
            [name, `node:${name}`].map((id) => ({
              name: id,
              message: 'workflow code must not use Node built-ins (it is replayed in a sandbox)',
            })),
          ),
          patterns: [
            {
              // The activities' types are in ./activity-contracts.ts, the pure helpers here:
              // no folder cycle, and nothing of the service can slip into the sandbox.
              regex: '^\\.\\./',
              message:
                'workflow code imports only from workflows/ (activity types: ./activity-contracts)',
            },
            {
              regex:
                '^(@mikro-orm|@temporalio/(activity|client|worker|testing)|@aws-sdk|express|pg|pino|nodemailer|undici|busboy)(/|$)',
              allowTypeImports: true,
              message:
                'workflows import only types and pure helpers: no database, I/O or worker packages (only @temporalio/workflow and @temporalio/common)',
            },
          ],
        },
      ],
    },
  },
  {
    // The client package runs in browsers as well as Node.js: fetch and web APIs only, and
    // nothing of the service it talks to (its types come from the OpenAPI document).
    files: ['client/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: builtinModules.flatMap((name) =>
            [name, `node:${name}`].map((id) => ({
              name: id,
              message: 'the client runs in browsers too: no Node.js built-ins',
            })),
          ),
          patterns: [
            {
              regex: '^(\\.\\./){2,}(src|workflows|activities)(/|$)',
              message: 'the client package imports nothing of the service outside client/',
            },
          ],
        },
      ],
    },
  },
  {
    // A `*.test.ts` file is the unit project (vitest.config.mts): it runs without the global setup, so
    // no PostgreSQL, no Temporal and no Formward server; a test that needs them lives elsewhere.
    files: ['**/*.test.ts'],
    ignores: ['**/*.int.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vitest',
              importNames: ['inject'],
              message:
                "a unit test (*.test.ts) has no global setup: inject('stack') is undefined there",
            },
            {
              name: '@temporalio/testing',
              message: 'a TestWorkflowEnvironment runs Temporal: an integration test',
            },
          ],
          patterns: [
            {
              regex:
                '^(\\.{1,2}/)+(support/(fixture|test-stack|shared-stack|scratch-database|own-temporal|build-once|workflow-probes|retention-runs|temporal-postgres|worker-process)|temporal/workflow-test-env|cli/running-start)$',
              message:
                'this helper starts or needs PostgreSQL, Temporal or a Formward server: an integration test, named *.int.test.ts',
            },
            {
              regex:
                '^(\\.{1,2}/)+src/(embedded/(postgres|temporal-server)|runtime/(http-server|worker-runner))$',
              allowTypeImports: true,
              message:
                'this starts PostgreSQL, Temporal, the HTTP server or a worker: an integration test, named *.int.test.ts',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.js', '.ci/**/*.js'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
