#!/usr/bin/env node
// npm run bench:corpora : files/s over the vendored real corpora in fixtures/corpora (keyword only, cold).
import { build } from 'esbuild';
import { benchBundle } from './bench-bundle.mjs';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'corpora.mjs');
  await build({
    ...benchBundle,
    entryPoints: ['bench/corpora.ts'],
    outfile,
  });
  const { runCorpora } = await import(pathToFileURL(resolve(outfile)).href);
  console.log(await runCorpora(resolve('fixtures', 'corpora')));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
