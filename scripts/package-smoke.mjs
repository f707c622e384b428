#!/usr/bin/env node
// Package smoke: the built dist/cli.js runs from a temp copy of the demo workspace (validate, index,
// recall --json) and dist/index.js imports. Exits non-zero with a message on any failure.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const cli = resolve('dist/cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'gitmem-smoke-'));
const ws = join(tmp, 'demo');
cpSync('fixtures/workspaces/demo', ws, { recursive: true });
let failed = false;
function run(args, expectCode = 0) {
  const r = spawnSync(process.execPath, [cli, ...args, '--dir', ws], { encoding: 'utf8' });
  const ok = r.status === expectCode;
  console.log(`${ok ? 'ok  ' : 'FAIL'} gitmem ${args.join(' ')} → exit ${r.status}`);
  if (!ok) {
    failed = true;
    process.stderr.write(r.stdout + r.stderr);
  }
  return r;
}
try {
  run(['validate']);
  run(['index', '--json']);
  const r = run(['recall', 'webhook signature', '--json']);
  const j = JSON.parse(r.stdout);
  if (!Array.isArray(j.results) || j.results.length === 0) {
    console.log('FAIL recall returned no results');
    failed = true;
  }
  const lib = await import(pathToFileURL(resolve('dist/index.js')).href);
  if (typeof lib.createMemory !== 'function') {
    console.log('FAIL dist/index.js does not export createMemory');
    failed = true;
  } else console.log('ok   dist/index.js exports createMemory');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
