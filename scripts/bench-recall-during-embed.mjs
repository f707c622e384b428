#!/usr/bin/env node
// node scripts/bench-recall-during-embed.mjs [--baseline old/dist/cli.cjs] [--cli dist/cli.cjs] [--rounds 2] [--files 50] [--lines 3000]
// Bundles bench/recall-during-embed.ts and runs its two measurements (a recall sent during a large
// update; the first open of a big workspace) against a real `gitmem lsp --stdio` with the real
// model, alternating the baseline build and this one when --baseline is given.
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchBundle } from './bench-bundle.mjs';

const args = process.argv.slice(2);
const opt = (n, d) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : d;
};
const cli = resolve(opt('--cli', 'dist/cli.cjs'));
const baseline = opt('--baseline') ? resolve(opt('--baseline')) : undefined;
const rounds = Number(opt('--rounds', '2'));
const files = Number(opt('--files', '50'));
const lines = Number(opt('--lines', '3000'));
const modelDir = resolve('models', 'all-MiniLM-L6-v2-q4');
if (!existsSync(cli) || !existsSync(modelDir)) {
  console.error('build dist/ (node scripts/build.mjs) and install the model (npm run setup) first');
  process.exit(2);
}
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-recall-embed-'));
try {
  const outfile = join(dir, 'bench.mjs');
  await build({ ...benchBundle, entryPoints: ['bench/recall-during-embed.ts'], outfile });
  const { measureUpdate, measureOpen } = await import(pathToFileURL(resolve(outfile)).href);
  const builds = baseline
    ? [
        ['before', baseline],
        ['after', cli],
      ]
    : [['this build', cli]];
  for (let r = 0; r < rounds; r++) {
    for (const [name, path] of builds) {
      const u = await measureUpdate(path, modelDir, files);
      console.log(`${name} update ${JSON.stringify(u)}`);
      const o = await measureOpen(path, modelDir, lines);
      console.log(`${name} open ${JSON.stringify(o)}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
