// Lint rules: typescript-eslint's recommended set over every TypeScript source, and the
// direction of the layers (src/http -> src/domain -> src/db; src/runtime wires them).
import js from '@eslint/js';
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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: layerRule(
      ['http', 'runtime', 'cli', 'temporal', 'app-context'],
      'src/domain is below src/http, src/runtime, src/cli and src/temporal: it must not import them',
    ),
  },
  {
    files: ['src/db/**/*.ts'],
    rules: layerRule(
      ['domain', 'http'],
      'src/db is the bottom layer: it must not import src/domain or src/http',
    ),
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
