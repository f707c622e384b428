#!/usr/bin/env node
// npm run bench:corpora : files/s over the vendored real corpora in fixtures/corpora (keyword only, cold).
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'corpora.mjs');
  await build({
    entryPoints: ['bench/corpora.ts'],
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
  const { runCorpora } = await import(pathToFileURL(resolve(outfile)).href);
  console.log(await runCorpora(resolve('fixtures', 'corpora')));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
