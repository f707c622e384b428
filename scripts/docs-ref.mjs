#!/usr/bin/env node
// npm run docs:ref: write docs/cli.md and docs/mcp.md from the code (the commander program and the MCP
// tool definitions: src/cli/reference.ts, src/mcp/reference.ts). `--check` writes nothing and exits 1
// when a committed file differs (test/unit/docs-reference.test.ts makes the same check in vitest).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const out = join(REPO, 'dist', `docs-ref-${process.pid}.mjs`);
mkdirSync(dirname(out), { recursive: true });
await build({
  stdin: {
    contents: [
      "import { buildProgram } from './src/cli/main.ts';",
      "import { cliReference } from './src/cli/reference.ts';",
      "import { mcpReference } from './src/mcp/reference.ts';",
      'export async function references() {',
      '  return { cli: cliReference(await buildProgram()), mcp: mcpReference() };',
      '}',
    ].join('\n'),
    resolveDir: REPO,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: out,
  logLevel: 'warning',
});
let refs;
try {
  refs = await (await import(pathToFileURL(out).href)).references();
} finally {
  rmSync(out, { force: true });
}
let stale = 0;
for (const [name, text] of [
  ['docs/cli.md', refs.cli],
  ['docs/mcp.md', refs.mcp],
]) {
  const path = join(REPO, name);
  let old = '';
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    // not written yet
  }
  if (old === text) console.log(`${name}: up to date`);
  else if (check) {
    console.log(`${name}: differs from the code; run npm run docs:ref`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.log(`${name}: written`);
  }
}
process.exit(stale ? 1 : 0);
