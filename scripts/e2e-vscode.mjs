#!/usr/bin/env node
// End-to-end test of the VS Code extension in a real VS Code: code-server 4.99.4 (VS Code 1.99.3,
// from the npm registry) on 127.0.0.1, driven through headless Debian Chromium by playwright-core
// Tools: scripts/e2e-vscode-tools.mjs install (npm test runs it).
//
//   node scripts/e2e-vscode.mjs [--vsix <file>] [--out <dir>]      (npm run e2e:vscode)
//
// 1. UI run: installs the platform .vsix of this machine (default extension/gitmem-<os>-<arch>-<version>.vsix
//    with the embedding model and onnxruntime inside; packaged with scripts/package-extension.mjs
//    --target when missing or older than the bundles), with no models/ folder anywhere the server
//    could find and, where `unshare -n` works (root), no network at all (only loopback). It opens a
//    temp git repository made from fixtures/workspaces/demo plus a broken entry, and checks in the
//    browser: the status bar says `hybrid`; the broken entry's squiggle and Problems rows; Recall…
//    lists a result and opens it at its lines; then the review steps of scripts/e2e-vscode-review.mjs
//    (hybrid recall of a paraphrase keyword misses, Memory Changes after an MCP memory_remember, the
//    diff editor, Checkpoint checked in git, hover lineage, CodeLens).
// 2. Extension-host run: a second code-server with no installed extensions loads the unpacked .vsix
//    as extensionDevelopmentPath and runs test/e2e/vscode-host/suite.ts as extensionTestsPath.
// Screenshots, logs and results go to the artifact folder printed first (default .cache/e2e-vscode).
// Every wait is on a condition with a timeout; each code-server runs in its own process group and is
// ended by killing that group. Exit 0 when everything passed, 1 otherwise.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  closeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { missing, tools } from './e2e-vscode-tools.mjs';
import { makeRepository, reviewSteps } from './e2e-vscode-review.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const T0 = Date.now();
const OVERALL_TIMEOUT_MS = Number(process.env.GITMEM_E2E_TIMEOUT_MS || 480_000);
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const log = (m) => console.log(`[e2e ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)} s] ${m}`);

// No network: re-run this script in a new network namespace that has only loopback (needs root and
// util-linux `unshare`; elsewhere the run says so and goes on with the network it has).
if (process.env.GITMEM_E2E_NETNS === undefined) {
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' });
  if (probe.status === 0) {
    const r = spawnSync(
      'unshare',
      ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.argv.slice(1)],
      {
        stdio: 'inherit',
        env: { ...process.env, GITMEM_E2E_NETNS: '1' },
      },
    );
    process.exit(r.status ?? 1);
  }
  process.env.GITMEM_E2E_NETNS = '0';
}
const OUT = resolve(arg('--out') ?? process.env.GITMEM_E2E_OUT ?? join(REPO, '.cache', 'e2e-vscode'));
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
console.log(`e2e artifacts (screenshots, logs, results): ${OUT}`);
console.log(
  process.env.GITMEM_E2E_NETNS === '1'
    ? 'e2e network: none (own network namespace, loopback only)'
    : 'e2e network: NOT isolated (`unshare -n` is unavailable here)',
);

const why = missing();
if (why) {
  console.error(
    `e2e: ${why}\n  install: apt-get install -y chromium libkrb5-dev ripgrep && node scripts/e2e-vscode-tools.mjs install   (npm test does both)`,
  );
  process.exit(1);
}
const T = tools();
const RUN = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-e2e-vscode-')));

// ---- process groups: every code-server (and what it starts) is ended by killing its group ----
const groups = new Set();
const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
async function killGroup(pgid) {
  if (!groups.has(pgid)) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const end = Date.now() + 5_000;
  while (groupAlive(pgid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) {
    log(`process group ${pgid} still alive 5 s after SIGTERM: SIGKILL`);
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  groups.delete(pgid);
}
process.on('exit', () => {
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

// ---- small helpers ----
/** The entries of a zip (a .vsix): name → bytes. Stored and deflated entries only (what vsce writes). */
function unzip(buf) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    files.set(name, method === 0 ? raw : inflateRawSync(raw));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

const TARGET = `${process.platform}-${process.arch}`;
/** The .vsix to test: --vsix / $GITMEM_E2E_VSIX, else this machine's platform .vsix extension/gitmem-<target>-<version>.vsix (packaged when missing or stale). */
function theVsix() {
  const given = arg('--vsix') ?? process.env.GITMEM_E2E_VSIX;
  if (given) return resolve(given);
  const { version } = JSON.parse(readFileSync(join(REPO, 'extension', 'package.json'), 'utf8'));
  const vsix = join(REPO, 'extension', `gitmem-${TARGET}-${version}.vsix`);
  let stale = !existsSync(vsix);
  if (!stale) {
    // Stale when a bundle on disk differs from the one inside (an edit since it was packaged).
    const inside = unzip(readFileSync(vsix));
    for (const f of ['extension.js', 'server.js']) {
      const disk = join(REPO, 'extension', 'dist', f);
      if (existsSync(disk) && !readFileSync(disk).equals(inside.get(`extension/dist/${f}`) ?? Buffer.alloc(0)))
        stale = true;
    }
  }
  if (stale) {
    log(`packaging ${vsix} (missing or older than extension/dist) with scripts/package-extension.mjs`);
    execFileSync(process.execPath, [join(REPO, 'scripts', 'package-extension.mjs'), '--target', TARGET], {
      cwd: REPO,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  return vsix;
}

/** A temp copy of the demo workspace plus one broken entry (bad type, unknown key, bad date, bad tags). */
function makeWorkspace(name) {
  const ws = join(RUN, name);
  cpSync(join(REPO, 'fixtures', 'workspaces', 'demo'), ws, { recursive: true });
  cpSync(
    join(REPO, 'fixtures', 'workspaces', 'broken', 'memory', 'entries', 'wrong-type.md'),
    join(ws, 'memory', 'entries', 'wrong-type.md'),
  );
  return ws;
}

const SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'git.enabled': false,
  'workbench.enableExperiments': false,
  'chat.commandCenter.enabled': false,
};

function codeServerEnv(dir) {
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    EXTENSIONS_GALLERY: '{}',
  };
  // Its IPC sockets and vscode-typescript* folders go to the run's temp folder (removed at the end), not
  // to /tmp; only when the socket paths stay well under the 108-byte unix socket limit.
  if (join(dir, 'tmp').length <= 60) env.TMPDIR = join(dir, 'tmp');
  delete env.GITMEM_MODEL_DIR; // as a user's editor: only the model inside the installed .vsix
  delete env.NODE_OPTIONS;
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

function codeServerArgs(dir) {
  return [
    '--config',
    join(dir, 'config.yaml'),
    '--user-data-dir',
    join(dir, 'data'),
    '--extensions-dir',
    join(dir, 'exts'),
  ];
}

function prepareServerDir(name) {
  const dir = join(RUN, name);
  for (const d of ['data/User', 'exts', 'xdg-config', 'xdg-data', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'data', 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  return dir;
}

/** Start code-server in its own process group on 127.0.0.1 with a port the OS picks; resolves to its base URL. */
async function startCodeServer(name, dir, folder) {
  const logFile = join(OUT, `code-server-${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(
    T.codeServer,
    [
      ...codeServerArgs(dir),
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      folder,
    ],
    { detached: true, stdio: ['ignore', fd, fd], env: codeServerEnv(dir) },
  );
  closeSync(fd);
  groups.add(child.pid);
  let exited = false;
  child.on('exit', () => (exited = true));
  const end = Date.now() + 60_000;
  let url;
  while (!url) {
    const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logFile, 'utf8'));
    if (m) url = m[1];
    else if (exited || Date.now() > end)
      throw new Error(`code-server (${name}) did not start${exited ? ' (exited)' : ' within 60 s'}; see ${logFile}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (exited || Date.now() > end) throw new Error(`code-server (${name}) /healthz never answered; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`code-server (${name}) listening on ${url}, process group ${child.pid}`);
  return { url, pgid: child.pid };
}

const require = createRequire(join(T.prefix, 'package.json'));
const { chromium } = require('playwright-core');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
let browser;
let page; // the page a failure screenshot is taken of

async function newPage() {
  const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  p.setDefaultTimeout(30_000); // no Playwright call waits unbounded
  return p;
}

/** Keep code-server's own logs (server, extension host, the gitmem output channel) as artifacts. */
function keepLogs(name, dir) {
  const logs = join(dir, 'data', 'logs');
  if (existsSync(logs)) cpSync(logs, join(OUT, `${name}-logs`), { recursive: true });
}

async function screenshot(name) {
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path });
  log(`screenshot ${path}`);
}

/** F1 → command → Enter. Retries when the palette was computed before the extension's commands arrived (recipe pitfall). */
async function runCommand(title) {
  const input = page.locator('.quick-input-widget input.input');
  for (let i = 1; i <= 10; i++) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('>' + title);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 3_000 });
    } catch {
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 5_000 });
      continue;
    }
    await row.click();
    return;
  }
  throw new Error(`command '${title}' never appeared in the command palette`);
}

// ---- 1. the UI run ----
async function uiRun(vsix) {
  const dir = prepareServerDir('ui');
  const ws = makeWorkspace('ws-ui');
  log(`installing ${vsix}`);
  const inst = spawnSync(T.codeServer, [...codeServerArgs(dir), '--install-extension', vsix], {
    encoding: 'utf8',
    timeout: 90_000,
    env: codeServerEnv(dir),
  });
  writeFileSync(join(OUT, 'install-extension.log'), `${inst.stdout}\n${inst.stderr}`);
  if (inst.status !== 0 || !/successfully installed/i.test(inst.stdout))
    throw new Error(`code-server --install-extension failed (exit ${inst.status}):\n${inst.stdout}${inst.stderr}`);
  const listed = spawnSync(T.codeServer, [...codeServerArgs(dir), '--list-extensions', '--show-versions'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: codeServerEnv(dir),
  }).stdout.trim();
  log(`installed extensions: ${listed}`);
  if (!/^gitmem\.gitmem@/m.test(listed)) throw new Error(`gitmem.gitmem is not listed after the install: ${listed}`);

  const initial = makeRepository(ws);
  // No models/ folder the server could find other than the one inside the installed extension.
  const extDir = join(
    dir,
    'exts',
    readdirSync(join(dir, 'exts')).find((n) => n.startsWith('gitmem.gitmem-')) ?? 'gitmem.gitmem-missing',
  );
  const bundled = join(extDir, 'models', 'all-MiniLM-L6-v2-q4');
  if (!existsSync(join(bundled, 'onnx', 'model_q4.onnx')))
    throw new Error(`the installed extension has no model at ${bundled}`);
  if (
    !existsSync(
      join(
        extDir,
        'dist',
        'node_modules',
        'onnxruntime-node',
        'bin',
        'napi-v6',
        process.platform,
        process.arch,
        'onnxruntime_binding.node',
      ),
    )
  )
    throw new Error(`the installed extension has no ${TARGET} onnxruntime binding`);
  for (let d = ws, i = 0; i < 6; i++, d = dirname(d))
    if (existsSync(join(d, 'models'))) throw new Error(`a models/ folder at ${d} could be found by the server`);
  log(
    `installed extension at ${extDir}: bundled model and ${TARGET} onnxruntime binding present; no other models/ folder`,
  );

  const { url, pgid } = await startCodeServer('ui', dir, ws);
  try {
    page = await newPage();
    const origins = new Set();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(`${url}/?folder=${encodeURIComponent(ws)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'memory' })
      .first()
      .waitFor({ timeout: 60_000 });
    log('workbench ready (Explorer lists the workspace)');

    // Status bar: the gitmem item says `hybrid` (vectors from the bundled model and runtime) and its tooltip names the index.
    // Matched by its mode: while the first index runs, VS Code's own progress item says
    // "gitmem: indexing memory…" beside it, and a match on 'gitmem' alone finds both.
    const item = page.locator('.part.statusbar .statusbar-item', { hasText: /gitmem: (hybrid|keyword)/ });
    await item.waitFor({ timeout: 90_000 });
    const itemText = (await item.innerText()).trim();
    await item.hover();
    const tip = page.locator('.workbench-hover, .monaco-hover', { hasText: 'gitmem: ready' }).first();
    await tip.waitFor({ timeout: 15_000 });
    const tipText = (await tip.innerText()).trim();
    if (!/gitmem: hybrid/.test(itemText))
      throw new Error(`status bar says ${JSON.stringify(itemText)}, not hybrid — ${tipText}`);
    if (!/ready — \d+ files, \d+ chunks, \d+ vectors/.test(tipText) || !/recall: hybrid/.test(tipText))
      throw new Error(`status-bar tooltip: ${JSON.stringify(tipText)}`);
    log(`status bar: "${itemText}" — ${tipText.replace(/\s+/g, ' ')}`);
    await screenshot('1-status-bar');
    await page.mouse.move(700, 450);

    // Diagnostics: open the broken entry; a squiggle in the editor and its rows in the Problems panel.
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('wrong-type.md');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'wrong-type.md' })
      .first()
      .click({ timeout: 15_000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'wrong-type.md' }).waitFor({ timeout: 15_000 });
    await page
      .locator('.editor-instance .monaco-editor .squiggly-error')
      .first()
      .waitFor({ state: 'attached', timeout: 30_000 });
    log('broken entry open: error squiggle rendered');
    await runCommand('View: Focus Problems');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'type must be one of' }).first();
    await problem.waitFor({ timeout: 30_000 });
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'unknown field colour' })
      .first()
      .waitFor({ timeout: 15_000 });
    log(`Problems panel: "${(await problem.innerText()).replace(/\s+/g, ' ').trim()}"`);
    await screenshot('2-diagnostics');

    // Recall…: type a query, pick the first result, the file opens with its lines selected.
    await runCommand('gitmem: Recall');
    await page.locator('.quick-input-widget input.input[placeholder^="Recall memory"]').waitFor({ timeout: 15_000 });
    await input.fill('webhook signature');
    const hit = page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'verify-webhooks-before-parsing' })
      .first();
    await hit.waitFor({ timeout: 30_000 });
    const rowText = (await hit.innerText()).replace(/\s+/g, ' ');
    const m = /(memory\/playbook\/verify-webhooks-before-parsing\.md):(\d+)(?:-(\d+))?/.exec(rowText);
    if (!m) throw new Error(`recall row without path:lines: ${rowText}`);
    const [start, end] = [Number(m[2]), Number(m[3] ?? m[2])];
    log(`Recall… lists ${m[0]}`);
    await screenshot('3-recall');
    await hit.click();
    await page
      .locator('.tabs-container .tab.active', { hasText: 'verify-webhooks-before-parsing.md' })
      .waitFor({ timeout: 15_000 });
    // Selection = lines start..end (start of the first to the end of the last): the status bar's cursor
    // is at the end of line `end` and counts the selected characters.
    const lines = readFileSync(join(ws, m[1]), 'utf8').split('\n');
    const selected = lines.slice(start - 1, end).join('\n').length;
    const endCol = lines[end - 1].length + 1;
    const cursor = page.locator('.part.statusbar .statusbar-item', {
      hasText: `Ln ${end}, Col ${endCol} (${selected} selected)`,
    });
    await cursor.waitFor({ timeout: 15_000 });
    log(`opened at its lines: status bar "${(await cursor.innerText()).trim()}" (lines ${start}-${end})`);
    await screenshot('4-recall-opened');

    await reviewSteps({ page, ws, repo: REPO, log, screenshot, runCommand, initial });

    const foreign = [...origins].filter(
      (o) =>
        !/^https?:\/\/127\.0\.0\.1(:\d+)?$/.test(o) && !o.startsWith('data:') && o !== 'null' && !o.startsWith('blob:'),
    );
    if (foreign.length) throw new Error(`the page requested non-loopback origins: ${foreign.join(', ')}`);
    await page.close();
    page = undefined;
  } finally {
    if (page) await screenshot('failure-ui').catch(() => undefined);
    await killGroup(pgid);
    keepLogs('ui', dir);
  }
}

// ---- 2. the extension's own tests in the real extension host (extensionTestsPath) ----
async function hostRun(vsix) {
  const dir = prepareServerDir('host'); // its own, empty extensions folder: only the development extension loads
  const ws = makeWorkspace('ws-host');
  const ext = join(RUN, 'ext-dev');
  for (const [name, bytes] of unzip(readFileSync(vsix))) {
    if (!name.startsWith('extension/')) continue;
    const target = join(ext, name.slice('extension/'.length));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  const suite = join(RUN, 'host-suite');
  const { build } = await import(createRequire(join(REPO, 'package.json')).resolve('esbuild'));
  await build({
    entryPoints: [join(REPO, 'test', 'e2e', 'vscode-host', 'suite.ts')],
    outfile: join(suite, 'index.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const { url, pgid } = await startCodeServer('host', dir, ws);
  try {
    const host = new URL(url).host;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${host}${ext}`],
      ['extensionTestsPath', `vscode-remote://${host}${suite}/index.js`],
    ];
    page = await newPage();
    const consoleLines = [];
    page.on('console', (msg) => consoleLines.push(msg.text()));
    await page.goto(`${url}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    let closed = false;
    page.on('close', () => (closed = true)); // VS Code closes the window when run() settles
    const resultsFile = join(suite, 'results.json');
    const end = Date.now() + 120_000;
    try {
      while (!existsSync(resultsFile)) {
        if (closed && !existsSync(resultsFile))
          throw new Error(
            'the extension-host window closed without results (run() threw before writing them; see host-console.log)',
          );
        if (Date.now() > end) throw new Error('the extension-host tests wrote no results within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      writeFileSync(join(OUT, 'host-console.log'), consoleLines.join('\n') + '\n');
    }
    const res = JSON.parse(readFileSync(resultsFile, 'utf8'));
    writeFileSync(join(OUT, 'extension-host-results.json'), JSON.stringify(res, null, 2));
    for (const r of res.results) log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.ms} ms)${r.ok ? '' : `\n${r.error}`}`);
    const failed = res.results.filter((r) => !r.ok).length;
    log(`extension-host tests in VS Code ${res.vscode}: ${res.results.length - failed} passed, ${failed} failed`);
    if (!page.isClosed()) await page.close().catch(() => undefined);
    page = undefined;
    if (failed || res.results.length === 0) throw new Error(`${failed} extension-host test(s) failed`);
  } finally {
    if (page && !page.isClosed()) await screenshot('failure-host').catch(() => undefined);
    await killGroup(pgid);
    keepLogs('host', dir);
  }
}

let ok = false;
const overall = setTimeout(() => {
  console.error(`e2e: FAIL — the whole run exceeded ${OVERALL_TIMEOUT_MS / 1000} s`);
  const finish = () => process.exit(1);
  (page ? page.screenshot({ path: join(OUT, 'failure-timeout.png') }).catch(() => undefined) : Promise.resolve()).then(
    finish,
    finish,
  );
}, OVERALL_TIMEOUT_MS);
try {
  const vsix = theVsix();
  log(
    `vsix ${vsix} (sha256 ${createHash('sha256').update(readFileSync(vsix)).digest('hex').slice(0, 16)}…, ${statSync(vsix).size} bytes)`,
  );
  browser = await chromium.launch({ executablePath: T.chromium, headless: true, args: CHROMIUM_ARGS });
  log(`Chromium ${browser.version()}`);
  await uiRun(vsix);
  await hostRun(vsix);
  ok = true;
} catch (e) {
  console.error(`e2e: FAIL — ${e?.stack ?? e}`);
  for (const f of ['code-server-ui.log', 'code-server-host.log']) {
    const p = join(OUT, f);
    if (existsSync(p)) console.error(`--- tail of ${p}\n${readFileSync(p, 'utf8').split('\n').slice(-25).join('\n')}`);
  }
} finally {
  await browser?.close().catch(() => undefined);
  for (const g of [...groups]) await killGroup(g);
  clearTimeout(overall);
  rmSync(RUN, { recursive: true, force: true });
}
log(`${ok ? 'PASS' : 'FAIL'} — screenshots and logs in ${OUT}`);
process.exit(ok ? 0 : 1);
