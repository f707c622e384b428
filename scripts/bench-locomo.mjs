#!/usr/bin/env node
// npm run bench:locomo [-- --mode keyword|vector|hybrid] [--out run.jsonl] [--json]
// Bundles bench/locomo.ts with esbuild into a temp file and runs it in this one process.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedDir } from '../bench/shared.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args.includes('--help') || args.includes('-h')) {
  console.log('usage: npm run bench:locomo -- [--mode keyword|vector|hybrid] [--out run.jsonl] [--json] [--cache] [--config JSON]');
  process.exit(0);
}
const shared = sharedDir(join('bench', 'locomo'), 'npm run bench:locomo');
// Bundle inside the repository so externals (onnxruntime-node) resolve from its node_modules.
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'locomo.mjs');
  await build({
    entryPoints: ['bench/locomo.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['onnxruntime-node'],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);" },
  });
  const { runLocomo } = await import(pathToFileURL(resolve(outfile)).href);
  const modelDir = process.env.GITMEM_MODEL_DIR ?? join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
  const config = opt('--config') ? JSON.parse(opt('--config')) : undefined;
  // --cache keeps derived state (and so the embeddings) in .cache/locomo-index between runs.
  const cacheDir = args.includes('--cache') ? resolve('.cache', 'locomo-index') : undefined;
  const res = await runLocomo({ shared, mode: opt('--mode') ?? 'keyword', out: opt('--out'), modelDir, config, cacheDir, singleToken: args.includes('--single-token') });
  if (args.includes('--json')) console.log(JSON.stringify({ summary: res.summary, score: res.score }, null, 2));
  else {
    process.stdout.write(res.table);
    console.log(`evidence within the context budget: ${res.budget}`);
    console.log(`\ngitmem ${opt('--mode') ?? 'keyword'} recall: ${res.summary.queries} questions (categories 1-4) over ${res.summary.workspaces} workspaces`);
    console.log(`embedded ${res.summary.embeddedChunks} chunks; degraded answers ${res.summary.degradedAnswers}`);
    console.log(`index ${res.summary.indexMs} ms total; recall p50 ${res.summary.recallP50Ms} ms, p95 ${res.summary.recallP95Ms} ms; lines per result: mean ${res.summary.meanLinesPerResult}, max ${res.summary.maxLinesPerResult}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
