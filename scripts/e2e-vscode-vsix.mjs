// The .vsix the VS Code end-to-end test (scripts/e2e-vscode.mjs) installs: this machine's platform
// package (extension/gitmem-<os>-<arch>-<version>.vsix), packaged with scripts/package-extension.mjs
// --target when missing or older than the bundles, and a reader of its zip entries.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** The entries of a zip (a .vsix): name → bytes. Stored and deflated entries only (what vsce writes). */
export function unzip(buf) {
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

export const TARGET = `${process.platform}-${process.arch}`;
/** The .vsix to test: `given` (--vsix / $GITMEM_E2E_VSIX), else this machine's platform .vsix extension/gitmem-<target>-<version>.vsix (packaged when missing or stale). */
export function theVsix(REPO, given, log) {
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
