#!/usr/bin/env node
// npm run reliability [-- --only crash,fuzz --seed N --verbose] : reliability figures at CI size.
// npm run soak : the same at ten times the size (convergence: 20 clones × 50 writes of every kind).
// --clones N --per-kind M resize the convergence run alone. Needs dist/ (npm run build): the harnesses start
// real `node dist/cli.cjs` processes. Bundles bench/reliability/index.ts (like scripts/bench.mjs).
import { build } from 'esbuild';
import { benchBundle } from './bench-bundle.mjs';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const value = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const size = args.includes('--soak') ? 'soak' : 'ci';
const only = (value('--only') ?? '').split(',').filter(Boolean);
const seed = value('--seed') !== undefined ? Number(value('--seed')) : undefined;
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'reliability-build-'));
let code = 1;
try {
  const outfile = join(dir, 'reliability.mjs');
  await build({
    ...benchBundle,
    entryPoints: ['bench/reliability/index.ts'],
    outfile,
  });
  const { runReliability } = await import(pathToFileURL(resolve(outfile)).href);
  const num = (n) => (value(n) !== undefined ? Number(value(n)) : undefined);
  const rep = await runReliability({
    size,
    only,
    seed,
    verbose: args.includes('--verbose'),
    ...(num('--clones') ? { clones: num('--clones') } : {}),
    ...(num('--per-kind') ? { perKind: num('--per-kind') } : {}),
  });
  code = rep.lost + rep.corrupt + rep.crashes + (rep.hangs ?? 0) + rep.failures === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = code;
