// esbuild bundles: dist/cli.js (ESM, shebang) and dist/index.js (library). Type-checking is separate
// (`npm run typecheck`). onnxruntime-node stays external: esbuild cannot bundle .node binaries.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { precompiledValidators } from './precompile-validators.mjs';

// js-yaml 3 (under gray-matter) require()s esprima at load time, through an alias esbuild cannot
// see, for its `!!js/function` type: every CLI call loaded and compiled esprima from node_modules.
// gray-matter parses with the safe schema (never js/function), and nothing in a memory file is
// executed, so the bundle gets js-yaml without esprima (the type then never resolves).
const withoutEsprima = {
  name: 'gitmem-without-esprima',
  setup(b) {
    b.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      const out = src.replace("esprima = _require('esprima');", 'esprima = undefined;');
      if (out === src) throw new Error(`${args.path}: the esprima require was not found (js-yaml changed?)`);
      return { contents: out, loader: 'js' };
    });
  },
};

// The CLI bundle's parse/lazy.ts and validate/lazy.ts: require() dist/parse.js or dist/validate.js
// (parse/heavy.ts, validate/heavy.ts: entries of the same split build, so they share the chunks
// cli.js loaded) on first use, not at start-up. Node >= 20.19 require()s an ES module synchronously.
const LAZY = { parse: 'heavyParse', validate: 'heavyValidate' };
const lazyEntries = {
  name: 'gitmem-lazy-entries',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/](parse|validate)[\\/]lazy\.ts$/ }, (args) => {
      const name = /[\\/](parse|validate)[\\/]lazy\.ts$/.exec(args.path)[1];
      return {
        loader: 'js',
        contents: `import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let heavy;
export function ${LAZY[name]}() {
  if (!heavy) {
    const at = ['./${name}.js', '../${name}.js'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
    heavy = createRequire(import.meta.url)(at.find((p) => existsSync(p)) ?? at[0]);
  }
  return heavy;
}
`,
      };
    });
  },
};

/**
 * Print the bytes dist/cli.js loads at start (its static import closure), by source package or
 * folder, and those the full CLI (src/cli/main.ts, loaded when no host answers) adds.
 */
function startupReport(meta) {
  const cli = Object.keys(meta.outputs).find((k) => /(^|\/)cli\.js$/.test(k));
  const start = closureReport(meta, cli, new Set(), 'dist/cli.js loads');
  const main = Object.keys(meta.outputs).find((k) => meta.outputs[k].entryPoint === 'src/cli/main.ts');
  if (main) closureReport(meta, main, start, 'the full CLI (cli/main.ts) adds');
}

function closureReport(meta, from, skip, what) {
  const outs = meta.outputs;
  const seen = new Set();
  const todo = [from];
  while (todo.length) {
    const k = todo.pop();
    if (seen.has(k) || skip.has(k)) continue;
    seen.add(k);
    for (const i of outs[k].imports) if (i.kind === 'import-statement' && outs[i.path]) todo.push(i.path);
  }
  const by = new Map();
  let total = 0;
  for (const k of seen)
    for (const [inp, v] of Object.entries(outs[k].inputs)) {
      const parts = inp.split('/');
      const g = parts[0] === 'node_modules' ? parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/') : inp;
      by.set(g, (by.get(g) ?? 0) + v.bytesInOutput);
      total += v.bytesInOutput;
    }
  console.log(`${what} ${(total / 1024).toFixed(0)} KiB (${seen.size} files):`);
  for (const [g, b] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.GITMEM_BUILD_REPORT) || 40))
    console.log(`${(b / 1024).toFixed(1).padStart(8)} KiB  ${g}`);
  return seen;
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  legalComments: 'none',
  external: ['onnxruntime-node'],
  logLevel: 'warning',
  plugins: [precompiledValidators, withoutEsprima],
  // CJS dependencies (lunr, gray-matter) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __gitmemCreateRequire } from 'node:module'; import { fileURLToPath as __gitmemToPath } from 'node:url'; import { dirname as __gitmemDirname } from 'node:path'; const require = __gitmemCreateRequire(import.meta.url); const __filename = __gitmemToPath(import.meta.url); const __dirname = __gitmemDirname(__filename);",
  },
};

// Code splitting: what the CLI imports on demand (the MCP server and its SDK, the language server)
// lands in dist/chunks/ and is compiled only when that command runs, not on every one-shot recall.
// Chunk names carry content hashes: drop the previous build's, so dist/ holds only what cli.js can load.
rmSync('dist/chunks', { recursive: true, force: true });
const cliBuild = await build({
  ...common,
  entryPoints: { cli: 'src/cli/bin.ts', parse: 'src/parse/heavy.ts', validate: 'src/validate/heavy.ts' },
  outdir: 'dist',
  splitting: true,
  plugins: [...common.plugins, lazyEntries],
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: `#!/usr/bin/env node\n${common.banner.js}` },
  metafile: true,
});
// What the CLI compiles at start: the bundles cli.js reaches by static imports (GITMEM_BUILD_REPORT=1 lists them).
if (process.env.GITMEM_BUILD_REPORT) startupReport(cliBuild.metafile);
chmodSync('dist/cli.js', 0o755);
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
// Keyword segments are built off the main thread by this worker; engine/segment-builder.ts finds it next to the bundle.
await build({ ...common, entryPoints: ['src/engine/lexical-worker.ts'], outfile: 'dist/lexical-worker.js' });
// The embedding session runs in this worker in long-lived hosts (platform/worker-embedder.ts finds it next to the bundle).
await build({ ...common, entryPoints: ['src/platform/embed-worker.ts'], outfile: 'dist/embed-worker.js' });
// VS Code loads CommonJS: the language server and the extension are CJS bundles (ARCHITECTURE §6).
const cjs = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [precompiledValidators, withoutEsprima],
};
await build({
  ...cjs,
  entryPoints: ['src/server/bin.ts'],
  outfile: 'extension/dist/server.js',
  external: ['onnxruntime-node'],
});
await build({ ...cjs, entryPoints: ['src/engine/lexical-worker.ts'], outfile: 'extension/dist/lexical-worker.js' });
await build({
  ...cjs,
  entryPoints: ['src/platform/embed-worker.ts'],
  outfile: 'extension/dist/embed-worker.js',
  external: ['onnxruntime-node'],
});
await build({
  ...cjs,
  entryPoints: ['extension/src/extension.ts'],
  outfile: 'extension/dist/extension.js',
  external: ['vscode'],
});
// contributes.jsonValidation points at a copy of the config schema (schemas/ stays the single source).
mkdirSync('extension/schemas', { recursive: true });
copyFileSync('schemas/config.schema.json', 'extension/schemas/config.schema.json');
console.log(
  'built dist/cli.js (+ dist/{parse,validate}.js, loaded on first use), dist/index.js, dist/{lexical,embed}-worker.js, extension/dist/{server,extension,lexical-worker,embed-worker}.js',
);
