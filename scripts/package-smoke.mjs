#!/usr/bin/env node
// Package smoke: the package a user installs. `npm pack` this repository, `npm install -g` the tarball
// into a temp prefix, then run the installed `gitmem` from that prefix's bin/ on a temp copy of the
// demo workspace with an empty HOME: validate, index, keyword-only recall (no model yet, nothing
// written to HOME), `gitmem setup --from models/…` (into HOME's user-level folder), `setup --check`,
// hybrid recall with the model; and the installed library entry imports. Everything is in one temp
// folder, removed at the end. Exits 1 with the failing step's output on any failure.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODEL = join(REPO, 'models', 'all-MiniLM-L6-v2-q4');
const tmp = mkdtempSync(join(tmpdir(), 'gitmem-smoke-'));
const prefix = join(tmp, 'prefix');
const home = join(tmp, 'home');
const ws = join(tmp, 'demo');
let failed = false;

function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) {
    failed = true;
    if (detail) process.stderr.write(`${detail.trimEnd()}\n`);
  }
  return ok;
}

/** Files under `dir`, relative (empty when it does not exist). */
function listTree(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)));
}

const npm = (args, extraEnv = {}) =>
  spawnSync('npm', args, {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', ...extraEnv },
  });

// The installed tool runs as a user would: empty HOME, no model override, PATH with the prefix first.
const userEnv = () => {
  const env = { ...process.env, HOME: home, PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, NO_COLOR: '1' };
  for (const k of ['GITMEM_MODEL_DIR', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME']) delete env[k];
  return env;
};
function gitmem(args, expectCode = 0) {
  const r = spawnSync('gitmem', args, { cwd: ws, encoding: 'utf8', env: userEnv(), timeout: 180_000 });
  report(
    r.status === expectCode,
    `gitmem ${args.join(' ')} → exit ${r.status}${r.signal ? ` (${r.signal})` : ''}`,
    `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
  );
  return r;
}
function recall(query, wantDegraded) {
  const r = gitmem(['recall', query, '--json', '--dir', ws]);
  let j;
  try {
    j = JSON.parse(r.stdout);
  } catch {
    return report(false, `recall "${query}" printed JSON`, r.stdout);
  }
  report(Array.isArray(j.results) && j.results.length > 0, `recall "${query}": ${j.results?.length ?? 0} results`);
  report(
    wantDegraded ? j.degraded !== null : j.degraded === null && j.mode === 'hybrid',
    `recall "${query}": mode ${j.mode}, degraded ${JSON.stringify(j.degraded)}`,
  );
}

try {
  mkdirSync(home);
  cpSync(join(REPO, 'fixtures', 'workspaces', 'demo'), ws, { recursive: true });
  if (!existsSync(join(REPO, 'dist', 'cli.cjs')))
    spawnSync(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'inherit' });
  const pack = npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp]);
  const tgz = readdirSync(tmp).find((f) => /^gitmem-.*\.tgz$/.test(f));
  if (!report(pack.status === 0 && tgz !== undefined, `npm pack → ${tgz}`, pack.stderr))
    throw new Error('npm pack failed');
  const t0 = Date.now();
  const inst = npm([
    'install',
    '-g',
    '--prefix',
    prefix,
    join(tmp, tgz),
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ]);
  if (
    !report(
      inst.status === 0 && existsSync(join(prefix, 'bin', 'gitmem')),
      `npm install -g --prefix <temp> ${tgz} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      inst.stdout + inst.stderr,
    )
  ) {
    throw new Error('install failed');
  }
  const which = spawnSync('sh', ['-c', 'command -v gitmem'], { encoding: 'utf8', env: userEnv() }).stdout.trim();
  report(which === join(prefix, 'bin', 'gitmem'), `gitmem on PATH is the installed one (${which})`);
  gitmem(['--version']);
  gitmem(['validate', '--dir', ws]);
  gitmem(['index', '--json', '--dir', ws]);
  recall('webhook signature', true);
  report(listTree(home).length === 0, 'nothing written to HOME by validate, index, recall', listTree(home).join('\n'));
  gitmem(['setup', '--from', MODEL]);
  gitmem(['setup', '--check']);
  const installed = listTree(home);
  report(
    installed.length > 0 && installed.every((f) => f.startsWith(join('.local', 'share', 'gitmem', 'models'))),
    'gitmem setup wrote only ~/.local/share/gitmem/models/',
    installed.join('\n'),
  );
  recall('webhook retries', false);
  report(
    listTree(home).length === installed.length,
    'nothing more written to HOME by recall with the model',
    listTree(home).join('\n'),
  );
  const lib = await import(pathToFileURL(join(prefix, 'lib', 'node_modules', 'gitmem', 'dist', 'index.js')).href);
  report(typeof lib.createMemory === 'function', 'the installed dist/index.js exports createMemory');
} catch (e) {
  report(false, String(e?.message ?? e));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
