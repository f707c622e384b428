#!/usr/bin/env node
// npm run bench:memorycode [-- --mode keyword|hybrid|keyword,hybrid] [--out PREFIX] [--json] [--cache | --cache-dir DIR] [--budget BYTES] [--workspaces dlg-008,...] [--dump FILE.jsonl] [--git]
// MemoryCode (rules that change across sessions) through MCP memory_recall; see bench/memorycode.ts.
// Bundles bench/memorycode.ts with esbuild into a temp file and runs it in this one process.
import { build } from 'esbuild';
import { benchBundle } from './bench-bundle.mjs';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
    'usage: npm run bench:memorycode -- [--mode keyword|hybrid|keyword,hybrid] [--out PREFIX] [--json] [--cache | --cache-dir DIR] [--budget BYTES] [--workspaces dlg-008,...] [--dump FILE.jsonl] [--git]',
  );
  console.log('Tune only on the 48 dialogues of the shared folder; the team checks other dialogues of the release.');
  process.exit(0);
}
const shared = sharedDir(join('bench', 'memorycode'), 'npm run bench:memorycode');
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'memorycode.mjs');
  await build({ ...benchBundle, entryPoints: ['bench/memorycode.ts'], outfile });
  const { runMemoryCode } = await import(pathToFileURL(resolve(outfile)).href);
  const modelDir = process.env.GITMEM_MODEL_DIR ?? join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
  const cacheDir = opt('--cache-dir')
    ? resolve(opt('--cache-dir'))
    : args.includes('--cache')
      ? resolve('.cache', 'memorycode-index')
      : undefined;
  const modes = (opt('--mode') ?? 'keyword,hybrid').split(',');
  const res = await runMemoryCode({
    shared,
    modes,
    modelDir,
    cacheDir,
    ...(opt('--out') ? { out: resolve(opt('--out')) } : {}),
    ...(opt('--dump') ? { dump: resolve(opt('--dump')) } : {}),
    ...(args.includes('--git') ? { git: true } : {}),
    ...(opt('--budget') ? { budget: Number(opt('--budget')) } : {}),
    ...(opt('--workspaces') ? { workspaces: opt('--workspaces').split(',') } : {}),
  });
  if (args.includes('--json')) console.log(JSON.stringify(res, null, 2));
  else {
    process.stdout.write(res.table);
    const s = res.summary;
    console.log(
      `\ngitmem MCP memory_recall (${modes.join(', ')}; limit 10, budget ${s.budget} B): ${s.queries} questions over ${s.workspaces} workspaces.` +
        ` R@10 / MRR@10 / stale>cur / stale@1 by the dataset's score.mjs (results cut to 5 lines); delivered: a current` +
        ` rule counts when one of its lines has 60 % of its content words in the block; first kept: of the questions whose first` +
        ` result holds the current rule, the share whose block delivers it.`,
    );
    console.log(
      `embedded ${s.embedded} chunks; degraded answers ${s.degraded}; index ${s.indexMs} ms; recall p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
