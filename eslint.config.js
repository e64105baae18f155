// ESLint runs only typescript-eslint's type-aware rules: what needs the type
// checker (promises, exhaustiveness, thrown values, needless assertions) and so
// is out of Biome's reach. Formatting and every syntactic rule stay with Biome
// (biome.json), so the two never disagree. Types come from the project service:
// each file is checked under its nearest tsconfig (tsconfig.json, or
// web/tsconfig.json for the browser client).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Generated code and build output are not ours to lint; plain .js/.mjs are
    // small scripts outside any tsconfig (Biome still lints them).
    // (.local/ holds dev uploads, HLS segments named *.ts among them.)
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'packages/contracts/src/gen/',
      '.local/',
      'test-artifacts/',
      'coverage/',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // Promises: an unawaited rejection crashes the process or is lost.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      // Errors: only Error objects carry a stack and reach AppError handling.
      '@typescript-eslint/only-throw-error': 'error',
      // Passing on a caught `unknown` (or an AbortSignal's `any` reason) as is stays allowed, as only-throw-error allows it.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Types: a new enum member or union case must be handled everywhere.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-misused-spread': 'error',
      '@typescript-eslint/no-unsafe-enum-comparison': 'error',
      '@typescript-eslint/no-redundant-type-constituents': 'error',
      '@typescript-eslint/no-meaningless-void-operator': 'error',
      '@typescript-eslint/no-deprecated': 'error',
    },
  },
);
