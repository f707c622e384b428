// The V8 code cache of the CLI bundle (dist/cli-bundle.cjs, one CommonJS-style script). Node 20
// compiles every ES module from source on each start (it has no module.enableCompileCache); a script
// compiled with vm.Script can instead be given the bytecode V8 produced on an earlier call
// (`cachedData`), which skips parsing and compiling the functions that call ran. The bytecode is
// asked for again at exit when there was none, V8 refused it, or this call ran a command the cache
// has not seen yet: it then holds what was deserialized plus what this call compiled.
//
// Where: the workspace's derived-state folder (cli/state-dir.ts), and only once that folder exists
// (gitmem made it); nothing is written anywhere else. The file name carries the bundle's content hash
// (from the build), the Node version, the CPU architecture and the V8 flags of the process, so
// another build, Node or flag set never reads it. V8 checks little of what it is given (versions and
// the source length, no checksum: corrupt bytecode aborts the process), so the file has its own
// header — magic, bundle hash, the bundle's size and mtime, payload length and CRC-32 — and any
// mismatch compiles from source as if there were no cache, as does V8's own refusal
// (`cachedDataRejected`). Written atomically (temp file + rename, mode 0600); a read-only or full
// folder only means no cache. GITMEM_NO_CODE_CACHE=1 turns it off. Imports node:* only.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';

const MAGIC = 'gitmem-v8-code-cache 1\n';
/**
 * Cache files kept per derived-state folder: the full CLI, read and host-client bundles, and as many
 * again for another build, Node version or flag set.
 */
const KEEP = 6;

/** What became of the cache for this call. */
export type CodeCacheStatus =
  | 'accepted'
  | 'missing'
  | 'corrupt'
  | 'stale'
  | 'rejected by V8'
  | 'off (GITMEM_NO_CODE_CACHE)'
  | 'off (no derived-state folder)';

/** The bundle, compiled (with the cache when it was usable) but not run yet. */
export interface CachedBundle {
  readonly status: CodeCacheStatus;
  /** The cache file this call read or will write, when there is a folder for it. */
  readonly path: string | undefined;
  /** Run the bundle's top level (the CLI); its exports. */
  run(): Record<string, unknown>;
}

interface Header {
  readonly bundle: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly length: number;
  readonly crc: number;
  /** The commands (see {@link commandKey}) whose calls compiled into this cache. */
  readonly commands: readonly string[];
}

/**
 * A short name for the kind of call argv makes (`recall:keyword`, `hook prompt`, `index`): calls of
 * one kind compile the same functions, so a cache that has seen it is not rewritten for it.
 */
export function commandKey(argv: readonly string[]): string {
  const words: string[] = [];
  let mode = '';
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--dir') i++;
    else if (a === '--mode') mode = `:${argv[++i] ?? ''}`;
    else if (a.startsWith('--mode=')) mode = `:${a.slice(7)}`;
    else if (!a.startsWith('-')) words.push(a);
  }
  const cmd = words[0] === 'hook' ? words.join(' ') : (words[0] ?? '');
  return cmd === 'recall' ? `recall${mode || ':hybrid'}` : cmd;
}

function cacheName(bundleHash: string): string {
  const flags = crc32(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']))
    .toString(16)
    .padStart(8, '0');
  return `code-cache-${bundleHash.slice(0, 16)}-${process.version}-${process.arch}-${flags}.v8`;
}

function isDir(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // ENOTDIR (a file on the way, e.g. `--dir` naming a file), EACCES, ELOOP: no cache
  }
}

/** The usable bytecode in `file` for this bundle, or why there is none. */
function readCache(
  file: string,
  bundleHash: string,
  st: { size: number; mtimeMs: number },
): { data: Buffer; header: Header } | { status: 'missing' | 'corrupt' | 'stale' } {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return { status: 'missing' };
  }
  if (buf.length < MAGIC.length || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return { status: 'corrupt' };
  const end = buf.indexOf(10, MAGIC.length);
  if (end < 0 || end - MAGIC.length > 64 * 1024) return { status: 'corrupt' };
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', MAGIC.length, end)) as Header;
  } catch {
    return { status: 'corrupt' };
  }
  if (header.bundle !== bundleHash || header.size !== st.size || header.mtimeMs !== st.mtimeMs)
    return { status: 'stale' };
  const data = buf.subarray(end + 1);
  if (data.length !== header.length || crc32(data) !== header.crc || !Array.isArray(header.commands))
    return { status: 'corrupt' };
  return { data, header };
}

/** Write the cache atomically and drop the oldest other cache files; any failure only means no cache. */
function writeCache(file: string, header: Omit<Header, 'length' | 'crc'>, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const full: Header = { ...header, length: data.length, crc: crc32(data) };
    writeFileSync(tmp, Buffer.concat([Buffer.from(MAGIC + JSON.stringify(full) + '\n'), data]), { mode: 0o600 });
    renameSync(tmp, file);
    const dir = dirname(file);
    const others = readdirSync(dir)
      .filter((n) => n.startsWith('code-cache-') && n.endsWith('.v8'))
      .map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t);
    for (const { n } of others.slice(KEEP)) rmSync(join(dir, n), { force: true });
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * Compile `file` (a CommonJS-style script of ASCII text, as the build writes it) with its code cache
 * in `stateDir`. `bundleHash` is the bundle's content hash the build recorded; `command` is
 * {@link commandKey} of this call.
 */
export function loadBundle(options: {
  readonly file: string;
  readonly bundleHash: string;
  readonly stateDir: string | undefined;
  readonly command: string;
}): CachedBundle {
  const { file, bundleHash, stateDir, command } = options;
  const st = statSync(file);
  // The build writes ASCII only, so latin1 gives the same text as utf8 as a one-byte string (cheaper to read and hash).
  const source = readFileSync(file, 'latin1');
  const off = process.env.GITMEM_NO_CODE_CACHE;
  const enabled = !off || off === '0' || off.toLowerCase() === 'false';
  const path = enabled && stateDir ? join(stateDir, cacheName(bundleHash)) : undefined;
  let status: CodeCacheStatus;
  let cached: { data: Buffer; header: Header } | undefined;
  if (!enabled) status = 'off (GITMEM_NO_CODE_CACHE)';
  else if (!path || !isDir(stateDir!)) status = 'off (no derived-state folder)';
  else {
    const r = readCache(path, bundleHash, st);
    if ('data' in r) cached = r;
    status = 'data' in r ? 'accepted' : r.status;
  }
  // "use strict": the sources are ES modules (strict). No import() in there: the build turns it into require().
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __gitmemMetaUrl) {"use strict";${source}\n})`,
    {
      filename: file,
      ...(cached ? { cachedData: cached.data } : {}),
    },
  );
  if (cached && script.cachedDataRejected) status = 'rejected by V8';
  const seen = status === 'accepted' ? cached!.header.commands : [];
  if (path && (status !== 'accepted' || !seen.includes(command))) {
    process.once('exit', () => {
      if (!isDir(stateDir!)) return;
      const commands = [...seen, command].slice(-64);
      writeCache(path, { bundle: bundleHash, size: st.size, mtimeMs: st.mtimeMs, commands }, script.createCachedData());
    });
  }
  return {
    status,
    path,
    run() {
      const module = { exports: {} as Record<string, unknown> };
      const fn = script.runInThisContext() as (...args: unknown[]) => void;
      fn(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
      return module.exports;
    },
  };
}
