// ESLint flat config: typescript-eslint's recommended rules for src/, test/, bench/ and extension/;
// formatting is Prettier's job (eslint-config-prettier turns the overlapping rules off). The gates
// (docs/ARCHITECTURE.md, "Gates"): size and shape limits for every file, and the layer rule per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { ALLOWED, ENTRY_EXCEPTIONS } from './test/support/layer-rule.mjs';

/**
 * The limits every linted file meets. `max-lines` counts every line (blank and comment lines too),
 * as `wc -l` does: the house rule is "no file over 500 lines", and a docstring is part of the file a
 * reader has to hold. The other three were measured on the tree (eslint at several thresholds) and
 * set at the lowest level that at most five files exceed.
 */
const LIMITS = {
  'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
  complexity: ['error', 46],
  'max-depth': ['error', 5],
  'max-params': ['error', 6],
};

/**
 * The files over a limit, at most five per rule, each held at its measured value (a ceiling: it
 * may shrink, not grow) with the reason it is not split or reshaped yet.
 */
const LIMIT_EXCEPTIONS = [
  // max-params
  {
    file: 'src/indexes/lexical/lexical-scorer.ts',
    rule: 'max-params',
    at: 11,
    why: 'scorePostings: the BM25 hot loop takes typed arrays as arguments so V8 optimises it (no object to unpack per posting)',
  },
  {
    file: 'src/indexes/vector/vector-quant.ts',
    rule: 'max-params',
    at: 7,
    why: 'quantizeRow: offsets into flat typed arrays, the hot loop of quantisation',
  },
];

/** `options` of `rule` with its limit raised to `at`. */
function raised(rule, at) {
  const [level, opts] = LIMITS[rule];
  return typeof opts === 'object' ? [level, { ...opts, max: at }] : [level, at];
}

/**
 * The layer rule (test/support/layer-rule.mjs) as `no-restricted-imports` blocks: for each layer and
 * each folder depth under it, the relative imports of every layer it may not import. Static imports
 * only; test/unit/architecture.test.ts also checks `import()` and `require()`.
 */
function layerBlocks() {
  const layers = Object.keys(ALLOWED).filter((l) => l !== 'index');
  const forbidden = (layer) => Object.keys(ALLOWED).filter((t) => t !== layer && !ALLOWED[layer].includes(t));
  const patterns = (layer, depth, except = []) => {
    const up = depth === 0 ? './' : '../'.repeat(depth);
    const group = [];
    for (const t of forbidden(layer)) {
      if (except.includes(t)) continue;
      group.push(t === 'index' ? `${up}index.js` : `${up}${t}/**`);
      for (const e of except) if (e.startsWith(`${t}/`)) group.push(`!${up}${e}`);
    }
    const message = `docs/ARCHITECTURE.md: ${layer}/ may import only ${ALLOWED[layer].join(', ') || 'itself'}`;
    return { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] };
  };
  const blocks = [{ files: ['src/index.ts'], rules: patterns('index', 0) }];
  for (const layer of layers)
    for (let depth = 1; depth <= 4; depth++)
      blocks.push({ files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.ts`], rules: patterns(layer, depth) });
  for (const [file, except] of Object.entries(ENTRY_EXCEPTIONS)) {
    const layer = file.split('/')[0];
    blocks.push({ files: [`src/${file}`], rules: patterns(layer, file.split('/').length - 1, except) });
  }
  return blocks;
}

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
  { rules: LIMITS },
  ...LIMIT_EXCEPTIONS.map(({ file, rule, at }) => ({ files: [file], rules: { [rule]: raised(rule, at) } })),
  ...layerBlocks(),
  prettier,
);
