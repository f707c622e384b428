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
// The parts: e2e-vscode-vsix.mjs (the .vsix), e2e-vscode-session.mjs (code-servers and their process
// groups), e2e-vscode-steps.mjs (the two runs), e2e-vscode-review.mjs (the review steps).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missing, tools } from './e2e-vscode-tools.mjs';
import { configureSession, groups, killGroup } from './e2e-vscode-session.mjs';
import { configureSteps, hostRun, page, setBrowser, uiRun } from './e2e-vscode-steps.mjs';
import { theVsix } from './e2e-vscode-vsix.mjs';

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
configureSession({ run: RUN, out: OUT, tools: T, log });
configureSteps({ repo: REPO, run: RUN, out: OUT, tools: T, log });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

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
  const vsix = theVsix(REPO, arg('--vsix') ?? process.env.GITMEM_E2E_VSIX, log);
  log(
    `vsix ${vsix} (sha256 ${createHash('sha256').update(readFileSync(vsix)).digest('hex').slice(0, 16)}…, ${statSync(vsix).size} bytes)`,
  );
  browser = await chromium.launch({ executablePath: T.chromium, headless: true, args: CHROMIUM_ARGS });
  setBrowser(browser);
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
