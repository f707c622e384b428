#!/usr/bin/env node
// npm run bench:workspace -- --files N --workspace realistic|synthetic --out DIR [--seed S]
// Writes one benchmark workspace to DIR (a git repository with gitmem.config.json, keyword only), the
// same one `npm run bench:peers` measures: `realistic` is bench/realistic.ts (LoCoMo turns from the
// shared folder and fixtures/corpora), `synthetic` is bench/perf.ts generateWorkspace. For measuring by
// hand, e.g. /usr/bin/time -f %M node dist/cli.cjs --dir DIR index --rebuild.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchBundle } from './bench-bundle.mjs';

const args = process.argv.slice(2);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const files = Number(opt('--files') ?? 10000);
const kind = opt('--workspace') ?? 'realistic';
const out = opt('--out');
if (args.includes('--help') || !out || !(files > 0) || !['realistic', 'synthetic'].includes(kind)) {
  console.log('usage: npm run bench:workspace -- --files 10000 --workspace realistic|synthetic --out DIR [--seed 46]');
  process.exit(args.includes('--help') ? 0 : 2);
}
if (existsSync(out)) {
  console.error(`${out} exists; give a new folder`);
  process.exit(2);
}
const shared = [process.env.GITMEM_SHARED, resolve('..', 'shared')].find(
  (c) => c && existsSync(join(c, 'bench', 'locomo')),
);
mkdirSync('.cache', { recursive: true });
const dir = mkdtempSync(join('.cache', 'bench-build-'));
try {
  const outfile = join(dir, 'workspace.mjs');
  await build({ ...benchBundle, entryPoints: ['bench/workspace-kinds.ts'], outfile });
  const { makeWorkspace } = await import(pathToFileURL(resolve(outfile)).href);
  const seed = opt('--seed') !== undefined ? Number(opt('--seed')) : undefined;
  const ws = makeWorkspace(kind, resolve(out), files, {
    ...(shared ? { shared } : {}),
    corpora: resolve('fixtures', 'corpora'),
    ...(seed !== undefined ? { seed } : {}),
  });
  writeFileSync(
    join(out, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  spawnSync('git', ['init', '-q'], { cwd: out });
  writeFileSync(join(out, '.queries.txt'), ws.queries.join('\n') + '\n');
  console.log(
    `${kind}: ${ws.files} files, ${(ws.bytes / 1e6).toFixed(1)} MB (${Math.round(ws.bytes / ws.files)} bytes a file) in ${out}; ${ws.queries.length} queries in ${join(out, '.queries.txt')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
