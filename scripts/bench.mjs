#!/usr/bin/env node
// npm run bench [-- --files N --embed-files N --only embed|injection|conflicts|lsp-edit] : performance figures, the injection detector's and the conflict check's measurements. Bundles bench/perf.ts and runs it.
import { build } from 'esbuild';
import { benchBundle } from './bench-bundle.mjs';
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
    ...benchBundle,
    entryPoints: ['bench/perf.ts'],
    outfile,
  });
  // The keyword worker (compaction, full rebuild off the main thread) sits next to the bundle, as in dist/.
  await build({
    ...benchBundle,
    external: [],
    entryPoints: ['src/engine/segments/lexical-worker.ts'],
    outfile: join(dir, 'lexical-worker.js'),
  });
  // The fresh process of the "peak RSS serving" figure (bench/perf.ts spawns it).
  await build({
    ...benchBundle,
    entryPoints: ['bench/serve-child.ts'],
    outfile: join(dir, 'serve-child.mjs'),
  });
  await build({
    ...benchBundle,
    entryPoints: ['src/platform/embed-worker.ts'],
    outfile: join(dir, 'embed-worker.js'),
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
