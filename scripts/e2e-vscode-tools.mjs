#!/usr/bin/env node
// The tools of the VS Code end-to-end test (scripts/e2e-vscode.mjs): code-server (a real VS Code
// build from the npm registry) and playwright-core, installed into a cache prefix OUTSIDE the
// project (never in package.json). Debian's rg seeds
// @vscode/ripgrep's download cache (no GitHub), npm_config_yes for node-pty's npx node-gyp,
// unsafe-perm for code-server's postinstall as root; libkrb5-dev and chromium come from apt (npm test: scripts/test-all.mjs).
//
//   node scripts/e2e-vscode-tools.mjs install   # only what is missing; idempotent
//   node scripts/e2e-vscode-tools.mjs check     # exit 0 when installed, else 1 with the reason
//
// Prefix: $GITMEM_E2E_CACHE (default ~/.cache/gitmem-e2e)/cs-<ver>-pw-<ver>; a marker file written
// last makes a half-finished install count as missing (it is then removed and redone).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.99.4'; // VS Code 1.99.3; engines.node 20 (4.103+ needs Node 22)
export const PLAYWRIGHT_VERSION = '1.65.1';
const RIPGREP_PKG = '1.15.11'; // @vscode/ripgrep pinned by code-server 4.99.4's lib/vscode shrinkwrap
const RIPGREP_ASSET = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';
const MARKER = '.gitmem-e2e-complete';

export function toolsPrefix() {
  const cache = process.env.GITMEM_E2E_CACHE || join(homedir(), '.cache', 'gitmem-e2e');
  return join(cache, `cs-${CODE_SERVER_VERSION}-pw-${PLAYWRIGHT_VERSION}`);
}

/** Paths of the installed tools. */
export function tools(prefix = toolsPrefix()) {
  const nm = join(prefix, 'node_modules');
  return {
    prefix,
    codeServer: join(nm, '.bin', 'code-server'),
    playwright: join(nm, 'playwright-core'),
    chromium: process.env.GITMEM_E2E_CHROMIUM || '/usr/bin/chromium',
  };
}

/** Why the tools cannot run, or undefined when they can. */
export function missing(prefix = toolsPrefix()) {
  const t = tools(prefix);
  if (!existsSync(join(prefix, MARKER)))
    return `code-server ${CODE_SERVER_VERSION} + playwright-core ${PLAYWRIGHT_VERSION} are not installed in ${prefix}`;
  if (!existsSync(t.chromium))
    return `no Chromium at ${t.chromium} (apt-get install chromium, or set GITMEM_E2E_CHROMIUM)`;
  return undefined;
}

function seedRipgrepCache() {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg)
    throw new Error(
      'no rg on PATH: apt-get install ripgrep (it seeds @vscode/ripgrep, which would otherwise call GitHub)',
    );
  const dir = join(tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PKG}`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('tar', ['-C', join(rg, '..'), '-czf', join(dir, RIPGREP_ASSET), 'rg'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not seed the ripgrep cache');
}

export function install(prefix = toolsPrefix()) {
  if (existsSync(join(prefix, MARKER))) {
    console.log(`e2e tools: cached in ${prefix}`);
    return;
  }
  const t0 = Date.now();
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(
    join(prefix, 'package.json'),
    JSON.stringify({ name: 'gitmem-e2e-tools', private: true }, null, 2) + '\n',
  );
  seedRipgrepCache();
  const log = join(prefix, 'npm-install.log');
  console.log(
    `e2e tools: installing code-server@${CODE_SERVER_VERSION} playwright-core@${PLAYWRIGHT_VERSION} into ${prefix} (about 70 s; log ${log})`,
  );
  const r = spawnSync(
    'sh',
    [
      '-c',
      `npm install code-server@${CODE_SERVER_VERSION} playwright-core@${PLAYWRIGHT_VERSION} --unsafe-perm --no-audit --no-fund --loglevel=error > "${log}" 2>&1`,
    ],
    { cwd: prefix, stdio: 'inherit', env: { ...process.env, npm_config_yes: 'true', npm_config_unsafe_perm: 'true' } },
  );
  const t = tools(prefix);
  const rgBin = join(
    prefix,
    'node_modules',
    'code-server',
    'lib',
    'vscode',
    'node_modules',
    '@vscode',
    'ripgrep',
    'bin',
    'rg',
  );
  const problem =
    r.status !== 0
      ? `npm install exited ${r.status}`
      : !existsSync(rgBin)
        ? `no ${rgBin}`
        : !existsSync(join(t.playwright, 'package.json'))
          ? 'no playwright-core'
          : undefined;
  let version = '';
  if (!problem) {
    // --version writes a default config.yaml and a log folder: keep them inside the prefix, not in $HOME.
    const home = join(prefix, 'version-check');
    const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
    const out =
      spawnSync(t.codeServer, ['--config', join(home, 'config.yaml'), '--version'], {
        encoding: 'utf8',
        timeout: 60_000,
        env,
      }).stdout ?? '';
    version = out.split('\n').find((l) => l.startsWith(CODE_SERVER_VERSION)) ?? out;
    rmSync(home, { recursive: true, force: true });
  }
  if (problem || !version.includes(CODE_SERVER_VERSION)) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-40).join('\n') : '';
    throw new Error(
      `e2e tools install failed: ${problem ?? `code-server --version said ${JSON.stringify(version)}`}\n${tail}`,
    );
  }
  writeFileSync(join(prefix, MARKER), `${version.trim()}\nplaywright-core ${PLAYWRIGHT_VERSION}\n`);
  console.log(
    `e2e tools: code-server ${version.trim()} + playwright-core ${PLAYWRIGHT_VERSION} in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2] ?? 'check';
  try {
    if (cmd === 'install') install();
    else if (cmd === 'check') {
      const why = missing();
      if (why) {
        console.error(why);
        process.exit(1);
      }
      console.log(`e2e tools: ok (${toolsPrefix()})`);
    } else {
      console.error('usage: node scripts/e2e-vscode-tools.mjs install|check');
      process.exit(2);
    }
  } catch (e) {
    console.error(String(e?.message ?? e));
    process.exit(1);
  }
}
