// The two runs of the VS Code end-to-end test (scripts/e2e-vscode.mjs): 1. the UI run (the installed
// .vsix in code-server, checked in the browser: status bar, diagnostics, Recall…, then the review steps
// of scripts/e2e-vscode-review.mjs) and 2. the extension-host run (test/e2e/vscode-host/suite.ts as
// extensionTestsPath), with the browser helpers they share. Every wait is on a condition with a timeout.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { makeRepository, reviewSteps } from './e2e-vscode-review.mjs';
import {
  codeServerArgs,
  codeServerEnv,
  killGroup,
  pollUntil,
  prepareServerDir,
  startCodeServer,
} from './e2e-vscode-session.mjs';
import { TARGET, unzip } from './e2e-vscode-vsix.mjs';

let REPO;
let RUN;
let OUT;
let T;
let log;
/** The repository, the run's temp folder, the artifact folder, the tools and the logger. */
export function configureSteps(o) {
  REPO = o.repo;
  RUN = o.run;
  OUT = o.out;
  T = o.tools;
  log = o.log;
}
let browser;
export let page; // the page a failure screenshot is taken of
/** The browser the runs open their pages in. */
export function setBrowser(b) {
  browser = b;
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
export async function uiRun(vsix) {
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
export async function hostRun(vsix) {
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
      const written = await pollUntil(
        () => {
          if (existsSync(resultsFile)) return true;
          if (closed)
            throw new Error(
              'the extension-host window closed without results (run() threw before writing them; see host-console.log)',
            );
          return false;
        },
        end,
        200,
      );
      if (!written) throw new Error('the extension-host tests wrote no results within 120 s');
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
