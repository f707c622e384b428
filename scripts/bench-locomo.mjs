#!/usr/bin/env node
// npm run bench:locomo [-- --mode keyword|vector|hybrid|all|a,b] [--out run.jsonl] [--json] [--cache | --cache-dir DIR] [--budget BYTES] [--limit N]
// (--limit: results asked per question, default 10; R@10 and MRR@10 still score the first 10, --out keeps all.)
// Bundles bench/locomo.ts with esbuild into a temp file and runs it in this one process.
import { build } from 'esbuild';
import { benchBundle } from './bench-bundle.mjs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedDir } from '../bench/shared.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    'usage: npm run bench:locomo -- [--mode keyword|vector|hybrid|all|keyword,hybrid] [--out run.jsonl] [--json] [--cache | --cache-dir DIR] [--budget BYTES] [--samples conv-26,...] [--config JSON] [--variants FILE.json] [--limit N] [--dump FILE.jsonl] [--git]',
  );
  console.log('Tuning half: conv-26, conv-30, conv-41, conv-42, conv-43; the other five are the held-out test half.');
  process.exit(0);
}
const shared = sharedDir(join('bench', 'locomo'), 'npm run bench:locomo');
// Bundle inside the repository so externals (onnxruntime-node) resolve from its node_modules.
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'locomo.mjs');
  await build({
    ...benchBundle,
    entryPoints: ['bench/locomo.ts'],
    outfile,
  });
  const { runLocomo } = await import(pathToFileURL(resolve(outfile)).href);
  const modelDir = process.env.GITMEM_MODEL_DIR ?? join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
  const config = opt('--config') ? JSON.parse(opt('--config')) : undefined;
  // --cache keeps derived state (and so the embeddings) in .cache/locomo-index between runs.
  const cacheDir = opt('--cache-dir')
    ? resolve(opt('--cache-dir'))
    : args.includes('--cache')
      ? resolve('.cache', 'locomo-index')
      : undefined;
  // --variants FILE.json: [{ "label": "...", "mode": "hybrid", "config": { "recall": { ... } } }, ...]
  const variants = opt('--variants') ? JSON.parse(readFileSync(opt('--variants'), 'utf8')) : undefined;
  const modeArg = opt('--mode') ?? 'keyword';
  const modes = variants
    ? variants.map((v) => v.label)
    : modeArg === 'all'
      ? ['keyword', 'vector', 'hybrid']
      : modeArg.split(',');
  const samples = opt('--samples') ? opt('--samples').split(',') : undefined;
  const budget = opt('--budget') ? Number(opt('--budget')) : undefined;
  const res = await runLocomo({
    shared,
    modes,
    variants,
    out: opt('--out'),
    ...(opt('--dump') ? { dump: resolve(opt('--dump')) } : {}),
    ...(args.includes('--git') ? { git: true } : {}),
    modelDir,
    config,
    cacheDir,
    samples,
    budget,
    singleToken: args.includes('--single-token'),
    ...(opt('--limit') ? { limit: Number(opt('--limit')) } : {}),
  });
  if (args.includes('--json')) console.log(JSON.stringify({ summary: res.summary, rows: res.rows }, null, 2));
  else {
    process.stdout.write(res.table);
    console.log(
      `\ngitmem recall (${modes.join(', ')}): ${res.summary.queries} questions (categories 1-4) over ${res.summary.workspaces} workspaces; evidence@${res.summary.budget}B from the rendered context block`,
    );
    console.log(`embedded ${res.summary.embeddedChunks} chunks; degraded answers ${res.summary.degradedAnswers}`);
    console.log(
      `index ${res.summary.indexMs} ms total; recall p50 ${res.summary.recallP50Ms} ms, p95 ${res.summary.recallP95Ms} ms; lines per result: mean ${res.summary.meanLinesPerResult}, max ${res.summary.maxLinesPerResult}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
