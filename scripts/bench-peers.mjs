#!/usr/bin/env node
// npm run bench:peers [-- --files 1000,10000] [--workspace realistic|synthetic|both] [--queries N]
//   [--baseline path/to/old/cli.js] [--cli dist/cli.cjs] [--out file] [--no-qmd] [--keep DIR]
//   [--checkout 1000] [--hybrid-files N]
// --keep DIR keeps the generated workspaces there and reuses them on the next run (a 100,000-file
// workspace takes minutes to write). --hybrid-files N adds the hybrid rows (bench/peers-hybrid.ts) over
// N synthetic files (about 5 chunks a file); by default they run when a size of 100,000 or more is asked.
// Installs qmd 2.8.3 with a Node 22 binary into a cache folder outside the project (scripts/peer-tools.mjs),
// builds dist/ when it is missing, bundles bench/peers.ts and runs gitmem and qmd side by side.
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { benchBundle } from './bench-bundle.mjs';
import { install, missing, peerTools } from './peer-tools.mjs';

const args = process.argv.slice(2);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    'usage: npm run bench:peers -- [--files 1000,10000] [--workspace realistic|synthetic|both] [--queries 40] [--baseline old/dist/cli.cjs] [--out report.md] [--no-qmd] [--keep DIR] [--checkout 1000] [--hybrid-files N]',
  );
  process.exit(0);
}
// The LoCoMo rows need the team's shared data folder; without it they are skipped with a clear line.
const shared = [process.env.GITMEM_SHARED, resolve('..', 'shared')].find(
  (c) => c && existsSync(join(c, 'bench', 'locomo')),
);
const kinds = { realistic: ['realistic'], synthetic: ['synthetic'], both: ['realistic', 'synthetic'] }[
  opt('--workspace') ?? 'both'
];
if (!kinds) {
  console.error(`--workspace must be realistic, synthetic or both, not ${opt('--workspace')}`);
  process.exit(2);
}
// qmd is installed unless --no-qmd; when it is missing or cannot be installed, gitmem's figures still print.
let tools;
if (args.includes('--no-qmd')) tools = missing() ? undefined : peerTools();
else
  try {
    install();
    tools = peerTools();
  } catch (e) {
    console.error(`qmd could not be installed (${e.message}); only gitmem's figures print`);
  }
if (!opt('--cli') && !existsSync('dist/cli.cjs')) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'peers.mjs');
  await build({
    ...benchBundle,
    entryPoints: ['bench/peers.ts'],
    outfile,
  });
  // The hybrid rows' fresh serving process and the workers it starts, as scripts/bench.mjs bundles them.
  for (const [entry, out, external] of [
    ['bench/serve-child.ts', 'serve-child.mjs', undefined],
    ['src/engine/segments/lexical-worker.ts', 'lexical-worker.js', []],
    ['src/platform/embed-worker.ts', 'embed-worker.js', undefined],
  ])
    await build({ ...benchBundle, ...(external ? { external } : {}), entryPoints: [entry], outfile: join(dir, out) });
  const files = (opt('--files') ?? '1000,10000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const hybridFiles = Number(opt('--hybrid-files') ?? (Math.max(...files) >= 100_000 ? 100_000 : 0));
  if (opt('--keep')) mkdirSync(resolve(opt('--keep')), { recursive: true });
  const { runPeers } = await import(pathToFileURL(resolve(outfile)).href);
  await runPeers({
    ...(tools ? { tools } : {}),
    kinds,
    corpora: resolve('fixtures', 'corpora'),
    cli: resolve(opt('--cli') ?? 'dist/cli.cjs'),
    ...(opt('--baseline') ? { baseline: resolve(opt('--baseline')) } : {}),
    ...(shared ? { shared } : {}),
    files,
    queries: Number(opt('--queries') ?? 40),
    ...(opt('--keep') ? { keep: resolve(opt('--keep')) } : {}),
    ...(opt('--checkout') ? { checkout: Number(opt('--checkout')) } : {}),
    hybridFiles,
    childDir: resolve(dir),
    ...(opt('--out') ? { out: resolve(opt('--out')) } : {}),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
