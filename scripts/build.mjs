// esbuild bundles: dist/cli.cjs (the CLI's entry, shebang) and dist/index.js (library). Type-checking is separate
// (`npm run typecheck`). onnxruntime-node stays external: esbuild cannot bundle .node binaries.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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

// The CLI bundle's parse/lazy.ts and validate/lazy.ts: require() parse/heavy.ts or validate/heavy.ts
// (remark, ajv) on first use; esbuild wraps a require()d module so it is evaluated only then, not at
// start-up (and its bytecode is in the code cache only once some call used it).
/**
 * isomorphic-git deflates the objects it writes (a checkpoint's blobs, trees and commit) through the
 * web CompressionStream read back with `new Response(...)`, whose first use loads Node's fetch
 * implementation: about 40-60 ms of CPU in every process that commits (a sync's checkpoint, each
 * write that commits). pako (which isomorphic-git already bundles, and inflates with) deflates a
 * memory file in well under a millisecond, so the support test is answered "no" at build time.
 */
const deflateWithPako = {
  name: 'gitmem-deflate-with-pako',
  setup(b) {
    let patched = 0;
    b.onStart(() => {
      patched = 0;
    });
    b.onLoad({ filter: /[\\/]isomorphic-git[\\/].*\.c?js$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      const out = src.replace(
        'supportsCompressionStream = testCompressionStream();',
        'supportsCompressionStream = false;',
      );
      if (out === src) return undefined;
      patched++;
      return { contents: out, loader: 'js' };
    });
    b.onEnd((result) => {
      const used = Object.keys(result.metafile?.inputs ?? {}).some((i) => i.includes('isomorphic-git'));
      if (used && patched === 0 && result.errors.length === 0)
        throw new Error('isomorphic-git: the CompressionStream test was not found (isomorphic-git changed?)');
    });
  },
};

const lazyHeavy = {
  name: 'gitmem-lazy-heavy',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/](parse|validate)[\\/]lazy\.ts$/ }, (args) => {
      const name = /[\\/](parse|validate)[\\/]lazy\.ts$/.exec(args.path)[1];
      const fn = name === 'parse' ? 'heavyParse' : 'heavyValidate';
      return {
        loader: 'js',
        resolveDir: dirname(args.path),
        contents: `let heavy;\nexport function ${fn}() {\n  return (heavy ??= require('./heavy.ts'));\n}\n`,
      };
    });
  },
};

/** Print the CLI bundle's bytes by source package or folder (GITMEM_BUILD_REPORT=N lists the N largest). */
function bundleReport(meta) {
  const by = new Map();
  let total = 0;
  for (const out of Object.values(meta.outputs))
    for (const [inp, v] of Object.entries(out.inputs)) {
      const parts = inp.split('/');
      const g = parts[0] === 'node_modules' ? parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/') : inp;
      by.set(g, (by.get(g) ?? 0) + v.bytesInOutput);
      total += v.bytesInOutput;
    }
  console.log(`dist/cli-bundle.cjs: ${(total / 1024).toFixed(0)} KiB`);
  for (const [g, b] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.GITMEM_BUILD_REPORT) || 40))
    console.log(`${(b / 1024).toFixed(1).padStart(8)} KiB  ${g}`);
}

/**
 * Non-ASCII text (in comments, regular expressions) → \uXXXX escapes, which mean the same in every
 * place they can occur in this bundle (strings, regular expressions, identifiers, comments; it has
 * no String.raw): an ASCII file is read as a one-byte string, about 5x cheaper than decoding UTF-8
 * into a two-byte one for a single non-ASCII character, and V8 hashes and scans it faster.
 */
function asciiOnly(text) {
  if (text.includes('String.raw')) throw new Error('cli-bundle.cjs: String.raw would see the \\u escapes');
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// jsonc-parser's "main" is a UMD build that loads its parts with a require() esbuild cannot follow
// (the bundle then fails with "Cannot find module './impl/format'"); its ES module build bundles.
const JSONC_ESM = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  legalComments: 'none',
  external: ['onnxruntime-node'],
  logLevel: 'warning',
  plugins: [precompiledValidators, withoutEsprima, deflateWithPako],
  alias: JSONC_ESM,
  // CJS dependencies (lunr, gray-matter) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __gitmemCreateRequire } from 'node:module'; import { fileURLToPath as __gitmemToPath } from 'node:url'; import { dirname as __gitmemDirname } from 'node:path'; const require = __gitmemCreateRequire(import.meta.url); const __filename = __gitmemToPath(import.meta.url); const __dirname = __gitmemDirname(__filename);",
  },
};

// The CLI: one CommonJS-format bundle (dist/cli-bundle.cjs) that the entry (dist/cli.cjs,
// cli/entry.ts) compiles with vm.Script and its V8 code cache (cli/code-cache.ts). What the CLI
// imports on demand (the full CLI after a host was asked, the commands, the MCP server and its SDK,
// the language server, remark, ajv) is wrapped by esbuild and evaluated only when first imported.
// The previous layout's files (dist/chunks/, dist/{parse,validate}.js) are dropped.
for (const old of ['dist/chunks', 'dist/parse.js', 'dist/parse.js.map', 'dist/validate.js', 'dist/validate.js.map'])
  rmSync(old, { recursive: true, force: true });
const cliBuild = await build({
  ...common,
  format: 'cjs',
  banner: {},
  entryPoints: ['src/cli/bin.ts'],
  outfile: 'dist/cli-bundle.cjs',
  plugins: [...common.plugins, lazyHeavy],
  // cli/code-cache.ts passes the bundle's file URL in as __gitmemMetaUrl.
  define: { 'import.meta.url': '__gitmemMetaUrl' },
  // import() of what is not bundled (onnxruntime-node, a CommonJS package; node:*) becomes require():
  // a vm.Script's import() needs an experimental Node flag and fails with a code cache on Node 20.
  supported: { 'dynamic-import': false },
  metafile: true,
  write: false,
});
/**
 * Write a CommonJS-format script bundle built with `write: false` (its .cjs as ASCII text, and its
 * source map) into dist/. @returns the SHA-256 of the .cjs text, which names its code cache.
 */
function writeScriptBundle(result) {
  let hash;
  // write: false leaves dist/ to us: on a clean clone it does not exist yet.
  mkdirSync('dist', { recursive: true });
  for (const f of result.outputFiles) {
    if (!f.path.endsWith('.cjs')) {
      writeFileSync(f.path, f.contents);
      continue;
    }
    const text = asciiOnly(f.text);
    hash = createHash('sha256').update(text).digest('hex');
    writeFileSync(f.path, text);
  }
  return hash;
}
const bundleHash = writeScriptBundle(cliBuild);
if (process.env.GITMEM_BUILD_REPORT) bundleReport(cliBuild.metafile);

// The read bundle (dist/cli-read.cjs): the same thin entry (cli/bin.ts) with cli/main.ts replaced by
// cli/main-stand-in.ts, which hands the call to the full bundle. The entry runs it for recall, get,
// hook prompt and context: 2.7 of the full bundle's 4.3 MB to read and compile on every cold call.
const fullCliStandIn = {
  name: 'gitmem-full-cli-stand-in',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]main\.ts$/ }, (args) => ({
      loader: 'ts',
      resolveDir: dirname(args.path),
      contents: readFileSync(args.path.replace(/main\.ts$/, 'main-stand-in.ts'), 'utf8'),
    }));
  },
};
const readBuild = await build({
  ...common,
  format: 'cjs',
  banner: {},
  entryPoints: ['src/cli/bin.ts'],
  outfile: 'dist/cli-read.cjs',
  plugins: [...common.plugins, lazyHeavy, fullCliStandIn],
  define: { 'import.meta.url': '__gitmemMetaUrl' },
  supported: { 'dynamic-import': false },
  write: false,
});
const readBundleHash = writeScriptBundle(readBuild);

// The host client (dist/cli-host.cjs, cli/host-first.ts): the entry runs it for a recall or get whose
// workspace has a host socket. It holds the read commands without the workspace modules: cli/open-workspace.ts
// (a call run in this process) is replaced by a module that throws the "run cold" marker, on which
// host-first hands the call to the CLI bundle.
const coldStandIn = {
  name: 'gitmem-cold-stand-in',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]open-workspace\.ts$/ }, () => ({
      loader: 'js',
      contents:
        "const cold = () => Promise.reject(Symbol.for('gitmem.run-cold'));\nexport const coldRecall = cold;\nexport const coldGet = cold;\n",
    }));
  },
};
const hostBuild = await build({
  ...common,
  format: 'cjs',
  banner: {},
  entryPoints: ['src/cli/host-first.ts'],
  outfile: 'dist/cli-host.cjs',
  plugins: [...common.plugins, coldStandIn],
  define: { 'import.meta.url': '__gitmemMetaUrl' },
  supported: { 'dynamic-import': false },
  write: false,
});
const hostBundleHash = writeScriptBundle(hostBuild);
// The merge driver (dist/cli-merge.cjs, cli/merge-file-main.ts): the entry runs it for
// `merge-file <base> <ours> <theirs>`, which git starts once per file a sync merges. Compiled without a
// code cache (small), so it needs no content hash.
const mergeBuild = await build({
  ...common,
  format: 'cjs',
  banner: {},
  entryPoints: ['src/cli/merge-file-main.ts'],
  outfile: 'dist/cli-merge.cjs',
  define: { 'import.meta.url': '__gitmemMetaUrl' },
  supported: { 'dynamic-import': false },
  write: false,
});
writeScriptBundle(mergeBuild);
// The process entry (dist/cli.cjs, the package's bin) is a CommonJS script: an ES module entry made
// Node start its ES module loader and build the namespace of every node:* module it imports (all of
// node:fs's exports, its streams with them), ~20 ms of each cold call (docs/ARCHITECTURE.md).
await build({
  ...common,
  format: 'cjs',
  entryPoints: ['src/cli/entry.ts'],
  outfile: 'dist/cli.cjs',
  banner: { js: "#!/usr/bin/env node\nconst __gitmemEntryUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: {
    'import.meta.url': '__gitmemEntryUrl',
    GITMEM_BUNDLE_HASH: JSON.stringify(bundleHash),
    GITMEM_HOST_BUNDLE_HASH: JSON.stringify(hostBundleHash),
    GITMEM_READ_BUNDLE_HASH: JSON.stringify(readBundleHash),
  },
});
chmodSync('dist/cli.cjs', 0o755);
// dist/cli.js, the entry's earlier name, runs it: merge-driver command lines that an earlier version
// wrote into .git/config, and scripts that name it, keep working.
writeFileSync(
  'dist/cli.js',
  "#!/usr/bin/env node\n// The gitmem CLI's entry is dist/cli.cjs; this file keeps its earlier name working.\nimport './cli.cjs';\n",
);
rmSync('dist/cli.js.map', { force: true });
chmodSync('dist/cli.js', 0o755);
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
// Keyword segments are built off the main thread by this worker; engine/segments/segment-builder.ts finds it next to the bundle.
await build({ ...common, entryPoints: ['src/engine/segments/lexical-worker.ts'], outfile: 'dist/lexical-worker.js' });
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
  plugins: [precompiledValidators, withoutEsprima, deflateWithPako],
  alias: JSONC_ESM,
};
await build({
  ...cjs,
  entryPoints: ['src/server/bin.ts'],
  outfile: 'extension/dist/server.js',
  external: ['onnxruntime-node'],
});
await build({
  ...cjs,
  entryPoints: ['src/engine/segments/lexical-worker.ts'],
  outfile: 'extension/dist/lexical-worker.js',
});
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
  'built dist/cli.cjs (+ dist/cli-bundle.cjs, dist/cli-read.cjs and dist/cli-host.cjs, run with their code caches), dist/index.js, dist/{lexical,embed}-worker.js, extension/dist/{server,extension,lexical-worker,embed-worker}.js',
);
