#!/usr/bin/env node
// npm test: install what the tests need, then run EVERY suite (a failing one never hides the next)
// and end with one summary whose last line is `N passed, N failed`.
//
//   1. Debian packages the editor tests need (neovim; chromium, ripgrep, libkrb5-dev for the real
//      VS Code run), installed with apt-get when missing and we are root or have sudo without a
//      password; otherwise one clear line and a failed unit.
//   2. the e2e tools (code-server + playwright-core) into their cache (scripts/e2e-vscode-tools.mjs),
//      and qmd 2.8.3 with a Node 22 binary into its cache (scripts/peer-tools.mjs) for the real qmd test.
//   3. the embedding model (gitmem setup's implementation, SHA-256 checked) into models/.
//   4. type-check (library + CLI + server, and the VS Code extension on its own), lint, build.
//   5. vitest (each test counts), package smoke, the real VS Code run (each counts as one unit).
//
// Steps 1-4 run side by side where they do not depend on each other (the installs wait on the
// network, the checks on the CPU): the Debian packages, then the e2e tools (which need rg and
// libkrb5-dev from them); qmd; the model; and the type-checks, ESLint, Prettier and the build, at most
// two of these CPU-bound ones at a time (CPU_SLOTS). Each step's output is printed as one block when
// it ends. Step 5 runs after all of them, one suite at a time, with its output live.
// Every step runs with TMPDIR set to one temp root that is removed at the end. Exit code 0 only
// when nothing failed. GITMEM_TEST_ONLY=name,name runs only the named steps (for debugging this script).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const T0 = Date.now();
const RUN_TMP = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-npm-test-')));
chmodSync(RUN_TMP, 0o755); // traversable: a hostile-fs test runs the CLI as an unprivileged user
const ENV = { ...process.env, TMPDIR: RUN_TMP, ONNXRUNTIME_NODE_INSTALL: 'skip' };
const NODE = process.execPath;
const only = process.env.GITMEM_TEST_ONLY ? new Set(process.env.GITMEM_TEST_ONLY.split(',')) : undefined;

/** Results, one row per step: passed/failed counts (vitest counts tests, other steps count 1). */
const rows = [];

const banner = (name) => console.log(`\n━━━━ ${name} ━━━━`);

/** Run a command with inherited output; returns its exit code (-1 when it could not start). */
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: REPO, env: ENV, stdio: 'inherit', ...options });
  if (r.error) console.error(`could not start ${cmd}: ${r.error.message}`);
  return r.status ?? -1;
}

/**
 * Run a command with its stdout and stderr collected into `log` (a step running beside others
 * prints its output as one block when it ends). @returns its exit code (-1 when it could not start).
 */
function runInto(log, cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    child.stdout.on('data', (d) => log.push(d));
    child.stderr.on('data', (d) => log.push(d));
    child.on('error', (e) => {
      log.push(`could not start ${cmd}: ${e.message}\n`);
      resolve(-1);
    });
    child.on('close', (code) => resolve(code ?? -1));
  });
}

function record(name, passed, failed, ms, note = '') {
  rows.push({ name, passed, failed, ms, note });
}

/** Outcome of a step function: true/false, or { ok, note }. */
function outcome(r) {
  return { ok: typeof r === 'object' ? r.ok : r, note: typeof r === 'object' ? (r.note ?? '') : '' };
}

/** One unit: a step that passes or fails as a whole. */
function unit(name, fn) {
  if (only && !only.has(name)) return;
  banner(name);
  const t = Date.now();
  let note = '';
  let ok;
  try {
    ({ ok, note } = outcome(fn()));
  } catch (e) {
    ok = false;
    note = String(e?.message ?? e).split('\n')[0];
    console.error(note);
  }
  record(name, ok ? 1 : 0, ok ? 0 : 1, Date.now() - t, note);
}

/** At most `n` CPU-bound steps at a time (type-checks, lint, build): more would only share the cores. */
function slots(n) {
  let free = n;
  const waiting = [];
  return async (fn) => {
    if (free > 0) free--;
    else await new Promise((r) => waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
const CPU_SLOTS = slots(Math.max(2, availableParallelism()));

/**
 * One unit that may run beside others: `fn(run)` gets a `run(cmd, args, options)` whose output is
 * collected; the banner and that output are printed when the step ends. `gate` (e.g. CPU_SLOTS)
 * decides when it may start. Rows keep `order`, so the summary lists the steps in the same order
 * every time. @returns true when the step passed.
 */
async function unitAsync(name, order, fn, gate = (f) => f()) {
  if (only && !only.has(name)) return true;
  const log = [];
  let t = Date.now();
  let note = '';
  let ok;
  try {
    // The step's time starts when the gate lets it run (not while it waits for a CPU slot).
    const r = await gate(() => ((t = Date.now()), fn((cmd, args, options) => runInto(log, cmd, args, options))));
    ({ ok, note } = outcome(r));
  } catch (e) {
    ok = false;
    note = String(e?.message ?? e).split('\n')[0];
    log.push(`${note}\n`);
  }
  const ms = Date.now() - t;
  banner(`${name} (${(ms / 1000).toFixed(0)} s)`);
  process.stdout.write(log.map(String).join(''));
  rows.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, ms, note, order });
  return ok;
}

// ---- 1. Debian packages ------------------------------------------------------------------------
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const dpkgHas = (pkg) => spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;
/** Debian package → how to tell it is installed. */
const PACKAGES = {
  neovim: () => has('nvim'),
  chromium: () => has('chromium') || existsSync(process.env.GITMEM_E2E_CHROMIUM ?? '/usr/bin/chromium'),
  ripgrep: () => has('rg'),
  'libkrb5-dev': () => dpkgHas('libkrb5-dev'),
};

async function systemPackages(run) {
  const missing = Object.keys(PACKAGES).filter((p) => !PACKAGES[p]());
  if (missing.length === 0) {
    console.log(`all present: ${Object.keys(PACKAGES).join(', ')}`);
    return true;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = !isRoot && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const manual = `sudo apt-get install -y ${missing.join(' ')}`;
  if (!has('apt-get') || (!isRoot && !sudo)) {
    const why = !has('apt-get') ? 'no apt-get on this machine' : 'not root and no password-less sudo';
    console.error(`missing packages: ${missing.join(', ')} (${why}); install them with: ${manual}`);
    return { ok: false, note: `missing ${missing.join(', ')}; run: ${manual}` };
  }
  const prefix = sudo ? ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'] : [];
  const apt = (...a) =>
    sudo
      ? run(prefix[0], [...prefix.slice(1), 'apt-get', ...a])
      : run('apt-get', a, { env: { ...ENV, DEBIAN_FRONTEND: 'noninteractive' } });
  console.log(`installing ${missing.join(', ')} with apt-get${sudo ? ' (sudo)' : ''}`);
  if ((await apt('update', '-qq')) !== 0) return { ok: false, note: 'apt-get update failed' };
  if ((await apt('install', '-y', '-qq', '--no-install-recommends', ...missing)) !== 0)
    return { ok: false, note: `apt-get install ${missing.join(' ')} failed` };
  const still = missing.filter((p) => !PACKAGES[p]());
  if (still.length) return { ok: false, note: `still missing after apt-get: ${still.join(', ')}` };
  return { ok: true, note: `installed ${missing.join(', ')}` };
}

// ---- 2. vitest, counted per test ----------------------------------------------------------------
/** Names of the failed tests (file: full name — first line of the message), shown in the summary. */
let failedTests = [];
function failedTestNames(j) {
  const names = [];
  for (const f of j.testResults ?? []) {
    const file = relative(REPO, f.name ?? '');
    const failedHere = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (f.status === 'failed' && failedHere.length === 0) {
      names.push(
        `${file}: did not load — ${String(f.message ?? '')
          .split('\n')[0]
          .slice(0, 200)}`,
      );
    }
    for (const a of failedHere) {
      const why = String((a.failureMessages ?? [])[0] ?? '')
        .split('\n')[0]
        .slice(0, 200);
      names.push(`${file}: ${a.fullName ?? a.title} — ${why}`);
    }
  }
  return names;
}

function vitest() {
  const name = 'vitest';
  if (only && !only.has(name)) return;
  banner(name);
  const t = Date.now();
  const out = join(RUN_TMP, 'vitest-results.json');
  const bin = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
  const code = run(NODE, [bin, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  let passed = 0;
  let failed = 0;
  let note = '';
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    passed = j.numPassedTests ?? 0;
    // A skipped or todo test is not a pass: it counts as failed, so nothing is silently skipped.
    const notRun = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    failed = (j.numFailedTests ?? 0) + notRun;
    // A test file that fails to load has no tests in the counts: count it too.
    const brokenFiles = (j.testResults ?? []).filter(
      (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
    ).length;
    failed += brokenFiles;
    const parts = [`${j.numTotalTestSuites ?? '?'} suites`];
    if (notRun) parts.push(`${notRun} skipped/todo counted as failed`);
    if (brokenFiles) parts.push(`${brokenFiles} test files failed to load`);
    note = parts.join('; ');
    failedTests = failedTestNames(j);
    if (code !== 0 && failed === 0) {
      failed = 1;
      note += `; vitest exited ${code}`;
    }
  } else {
    failed = 1;
    note = `vitest exited ${code} without a result file`;
  }
  record(name, passed, failed, Date.now() - t, note);
}

// ---- the run ------------------------------------------------------------------------------------
let exitCode = 1;
try {
  const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  const cpu = (name, order, cmd, args) =>
    unitAsync(name, order, async (run) => (await run(cmd, args)) === 0, CPU_SLOTS);
  const t1 = Date.now();
  console.log('steps 1-4 side by side; each prints its output when it ends');
  await Promise.all([
    unitAsync('system packages', 0, systemPackages).then(() =>
      unitAsync('e2e tools', 1, async (run) => (await run(NODE, ['scripts/e2e-vscode-tools.mjs', 'install'])) === 0),
    ),
    unitAsync('qmd', 2, async (run) => (await run(NODE, ['scripts/peer-tools.mjs', 'install'])) === 0),
    unitAsync('model setup', 3, async (run) => (await run(NODE, ['scripts/setup-model.mjs'])) === 0),
    // Longest first (they take the two slots), so the slots end about together.
    cpu('typecheck', 4, NODE, [tsc, '-p', 'tsconfig.json', '--noEmit']),
    // ESLint (typescript-eslint) and Prettier as `npm run lint` runs them: with their caches under
    // node_modules/.cache, keyed by file content (a clean clone starts empty; a local re-run is fast).
    cpu('prettier', 7, NODE, [
      join(REPO, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
      '--cache',
      '--check',
      '.',
    ]),
    cpu('eslint', 6, NODE, [
      join(REPO, 'node_modules', 'eslint', 'bin', 'eslint.js'),
      ...['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.'],
    ]),
    cpu('typecheck extension', 5, NODE, [tsc, '-p', 'extension/tsconfig.json', '--noEmit']),
    cpu('build', 8, NODE, ['scripts/build.mjs']),
  ]);
  rows.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  console.log(`\nsteps 1-4: ${((Date.now() - t1) / 1000).toFixed(0)} s wall`);
  vitest();
  unit('package smoke', () => run(NODE, ['scripts/package-smoke.mjs']) === 0);
  unit('e2e vscode', () => run(NODE, ['scripts/e2e-vscode.mjs']) === 0);
} finally {
  rmSync(RUN_TMP, { recursive: true, force: true, maxRetries: 3 });
  const passed = rows.reduce((s, r) => s + r.passed, 0);
  const failed = rows.reduce((s, r) => s + r.failed, 0);
  const w = Math.max(...rows.map((r) => r.name.length), 4);
  console.log(`\n━━━━ summary (${((Date.now() - T0) / 1000).toFixed(0)} s) ━━━━`);
  for (const r of rows) {
    const status = r.failed ? 'FAIL' : 'ok  ';
    const counts = r.name === 'vitest' ? ` ${r.passed} passed, ${r.failed} failed` : '';
    console.log(
      `${status} ${r.name.padEnd(w)} ${(r.ms / 1000).toFixed(0).padStart(4)} s${counts}${r.note ? `  (${r.note})` : ''}`,
    );
  }
  // The failed tests' names sit just above the last line, so a short tail of the log names them.
  for (const t of failedTests.slice(0, 8)) console.log(`  failed: ${t}`);
  if (failedTests.length > 8) console.log(`  … and ${failedTests.length - 8} more failed tests`);
  console.log(`${passed} passed, ${failed} failed`);
  exitCode = failed === 0 && rows.length > 0 ? 0 : 1;
}
process.exit(exitCode);
