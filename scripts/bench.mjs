#!/usr/bin/env node
// npm run bench [-- --files N --embed-files N --only embed] : performance figures. Bundles bench/perf.ts and runs it.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
// Bundle inside the repository so externals (onnxruntime-node) resolve from its node_modules.
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'perf.mjs');
  await build({
    entryPoints: ['bench/perf.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['onnxruntime-node'],
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);",
    },
  });
  // The keyword worker (compaction, full rebuild off the main thread) sits next to the bundle, as in dist/.
  await build({
    entryPoints: ['src/engine/lexical-worker.ts'],
    outfile: join(dir, 'lexical-worker.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);",
    },
  });
  // The fresh process of the "peak RSS serving" figure (bench/perf.ts spawns it).
  await build({
    entryPoints: ['bench/serve-child.ts'],
    outfile: join(dir, 'serve-child.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['onnxruntime-node'],
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);",
    },
  });
  await build({
    entryPoints: ['src/platform/embed-worker.ts'],
    outfile: join(dir, 'embed-worker.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['onnxruntime-node'],
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);",
    },
  });
  const { runPerf } = await import(pathToFileURL(resolve(outfile)).href);
  await runPerf({
    files: opt('--files'),
    queries: opt('--queries'),
    edits: opt('--edits'),
    hybridFiles: opt('--hybrid-files'),
    embedFiles: opt('--embed-files'),
    only: args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
