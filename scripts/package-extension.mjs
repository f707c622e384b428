// Package the VS Code extension with @vscode/vsce (bundles built by scripts/build.mjs).
//
//   node scripts/package-extension.mjs [--out <file.vsix>]
//       the universal .vsix: bundles, schema, manifest; keyword recall unless a model is configured
//   node scripts/package-extension.mjs --target linux-x64 [--target …] [--out-dir <dir>]
//   node scripts/package-extension.mjs --all-targets [--out-dir <dir>]
//       platform .vsix files (gitmem-<target>-<version>.vsix): the same plus the embedding model
//       (models/ after `npm run setup`, SHA-256 checked against src/core/model-sha256.json) and
//       onnxruntime-node with ONLY that target's native binding, in dist/node_modules/ (where the
//       server bundle's import('onnxruntime-node') finds it). Hybrid recall works offline with no setting.
//
// Targets are the platforms onnxruntime-node ships binaries for (its bin/napi-v6/<os>/<arch>); a
// target without a binary here is refused with the reason. Prints each .vsix path and size.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ext = join(root, 'extension');
const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8'));
const argv = process.argv.slice(2);
const values = (name) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
const value = (name) => values(name)[0];

if (argv.includes('--help') || argv.includes('-h')) {
  console.log(
    'usage: node scripts/package-extension.mjs [--out <file.vsix>] | [--target <os-arch>]… | --all-targets [--out-dir <dir>]',
  );
  process.exit(0);
}

const ortDir = dirname(require.resolve('onnxruntime-node/package.json'));
// onnxruntime-common exports no package.json: its CommonJS entry is dist/cjs/index.js.
const commonDir = resolve(dirname(require.resolve('onnxruntime-common', { paths: [ortDir] })), '..', '..');
const ortBin = join(ortDir, 'bin', 'napi-v6');
/** vsce targets onnxruntime-node has a native binding for in this install. */
function shippedTargets() {
  if (!existsSync(ortBin)) return [];
  return readdirSync(ortBin)
    .flatMap((os) =>
      readdirSync(join(ortBin, os))
        .filter((arch) => existsSync(join(ortBin, os, arch, 'onnxruntime_binding.node')))
        .map((arch) => `${os}-${arch}`),
    )
    .sort();
}

if (
  !existsSync(join(ext, 'dist', 'server.js')) ||
  !existsSync(join(ext, 'dist', 'extension.js')) ||
  !existsSync(join(ext, 'schemas', 'config.schema.json'))
) {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}
const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');

function runVsce(cwd, out, target) {
  execFileSync(
    process.execPath,
    [
      vsce,
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      ...(target ? ['--target', target] : []),
      '--out',
      out,
    ],
    {
      cwd,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const mb = (statSync(out).size / 1024 / 1024).toFixed(1);
  console.log(`${out}  (${target ?? 'universal'}, ${mb} MB)`);
}

const targets = argv.includes('--all-targets') ? shippedTargets() : values('--target');
if (!targets.length) {
  // The universal package: what extension/.vscodeignore lets through.
  runVsce(ext, resolve(value('--out') ?? join(ext, `gitmem-${version}.vsix`)));
  process.exit(0);
}

const available = shippedTargets();
const unknown = targets.filter((t) => !available.includes(t));
if (unknown.length) {
  console.error(
    `cannot build ${unknown.join(', ')}: onnxruntime-node ${JSON.parse(readFileSync(join(ortDir, 'package.json'), 'utf8')).version} ships native bindings for ${available.join(', ') || 'nothing here'} only`,
  );
  process.exit(1);
}

// The model, checked before it is shipped.
const manifest = JSON.parse(readFileSync(join(root, 'src', 'core', 'model-sha256.json'), 'utf8'));
const modelDir = join(root, 'models', manifest.id);
for (const [file, want] of Object.entries(manifest.files)) {
  const p = join(modelDir, file);
  if (!existsSync(p)) {
    console.error(`no ${p}: run \`npm run setup\` first (the platform .vsix ships the embedding model)`);
    process.exit(1);
  }
  const got = createHash('sha256').update(readFileSync(p)).digest('hex');
  if (got !== want) {
    console.error(`${p}: SHA-256 ${got} does not match ${want}; reinstall with \`npm run setup -- --force\``);
    process.exit(1);
  }
}

const outDir = resolve(value('--out-dir') ?? ext);
mkdirSync(outDir, { recursive: true });
const jsOnly = (src) => !/\.(map|d\.ts|ts)$/.test(src);
for (const target of targets) {
  const [os, arch] = target.split('-');
  const stage = mkdtempSync(join(tmpdir(), `gitmem-vsix-${target}-`));
  try {
    for (const f of ['package.json', 'README.md', 'LICENSE.txt']) cpSync(join(ext, f), join(stage, f));
    for (const f of ['extension.js', 'server.js', 'lexical-worker.js', 'embed-worker.js'])
      if (existsSync(join(ext, 'dist', f))) cpSync(join(ext, 'dist', f), join(stage, 'dist', f));
    cpSync(join(ext, 'schemas'), join(stage, 'schemas'), { recursive: true });
    for (const f of Object.keys(manifest.files).concat(['config.json', 'special_tokens_map.json'])) {
      if (existsSync(join(modelDir, f))) cpSync(join(modelDir, f), join(stage, 'models', manifest.id, f));
    }
    // onnxruntime-node: its JS, and the native binding of this target only.
    // dist/node_modules: found by Node's own resolution from dist/server.js (vsce leaves out only a top-level node_modules/).
    const rt = join(stage, 'dist', 'node_modules', 'onnxruntime-node');
    cpSync(join(ortDir, 'package.json'), join(rt, 'package.json'));
    cpSync(join(ortDir, 'dist'), join(rt, 'dist'), { recursive: true, filter: jsOnly });
    cpSync(join(ortBin, os, arch), join(rt, 'bin', 'napi-v6', os, arch), { recursive: true });
    const rc = join(stage, 'dist', 'node_modules', 'onnxruntime-common');
    cpSync(join(commonDir, 'package.json'), join(rc, 'package.json'));
    cpSync(join(commonDir, 'dist', 'cjs'), join(rc, 'dist', 'cjs'), { recursive: true, filter: jsOnly });
    for (const [dir, to] of [
      [ortDir, rt],
      [commonDir, rc],
    ])
      for (const lic of ['LICENSE', 'LICENSE.txt', 'README.md'])
        if (existsSync(join(dir, lic))) cpSync(join(dir, lic), join(to, lic));
    writeFileSync(join(stage, '.vscodeignore'), '**/*.map\n**/*.d.ts\n');
    runVsce(stage, join(outDir, `gitmem-${target}-${version}.vsix`), target);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
