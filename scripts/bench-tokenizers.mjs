#!/usr/bin/env node
// node scripts/bench-tokenizers.mjs : WordPiece vs @huggingface/tokenizers (ids and speed). Bundles bench/tokenizers.ts and runs it.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'tokenizers.mjs');
  await build({
    entryPoints: ['bench/tokenizers.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  await import(pathToFileURL(resolve(outfile)).href);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
