// ESLint flat config: typescript-eslint's recommended rules for src/, test/, bench/ and extension/;
// formatting is Prettier's job (eslint-config-prettier turns the overlapping rules off).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'models/**',
      '.cache/**',
      'extension/dist/**',
      'extension/out/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests talk to protocols (LSP, MCP, JSON output) whose replies they inspect loosely.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-useless-assignment': 'off' },
  },
  {
    // Build and bench scripts keep a default exit code that a later line may overwrite.
    files: ['scripts/**'],
    rules: { 'no-useless-assignment': 'off' },
  },
  {
    // commander hands each action its options untyped; the CLI reads them as such.
    files: ['src/cli/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
