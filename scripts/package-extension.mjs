// Package the VS Code extension into a .vsix with @vscode/vsce (bundles built by scripts/build.mjs;
// no node_modules are shipped: everything the extension and its server need is bundled).
// Usage: node scripts/package-extension.mjs [--out <file.vsix>]   (default extension/gitmem-<version>.vsix)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ext = join(root, 'extension');
const { version } = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8'));
const i = process.argv.indexOf('--out');
const out = resolve(i > 0 ? process.argv[i + 1] : join(ext, `gitmem-${version}.vsix`));
if (!existsSync(join(ext, 'dist', 'server.js')) || !existsSync(join(ext, 'dist', 'extension.js')) || !existsSync(join(ext, 'schemas', 'config.schema.json'))) {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}
const vsce = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', out], { cwd: ext, stdio: ['ignore', 'inherit', 'inherit'] });
console.log(out);
