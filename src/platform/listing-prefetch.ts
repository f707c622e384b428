// The file listing of a one-shot read call, taken by a child process while this one starts. A cold
// `gitmem recall` walks and stats every file of the workspace (engine/load/load.ts) on the main thread;
// the process entry (cli/entry.ts) spends its first ~100 ms compiling the CLI bundle, with the second
// core idle. So on Linux, before compiling, it runs the system's GNU find over the workspace (the
// folders the walk enters: every one but .git, node_modules and .gitmem), which writes the type,
// size, mtime, ctime, inode and path of every folder, markdown file and config file, and marks any
// entry of another kind, to a file of ours that is unlinked at once (nothing left behind, even on a
// crash). Two uses:
// - its digest (SHA-256 of the whole listing): when it equals the one recorded after the last walk
//   that found every file as the index has it (engine/freshness/walk-digest.ts), nothing a walk reads changed
//   since, and the answer needs no walk at all;
// - its stats: otherwise the walk looks its files up there (platform/node-fs.ts statAll) and stats
//   only what find did not report (symlinks, files made since; any other platform: statSync as
//   before). Keys are built from the same four numbers by the same function (platform/stat-key.ts),
//   so a manifest written by either path matches the other.
// Bad inputs H11, H12 (docs/bad-inputs.md). Nothing from a memory file is executed: find gets fixed
// arguments and the root as one argv entry.
// deps: core (ports), platform (stat-key), node:*.
import { spawn } from 'node:child_process';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FileStat } from '../core/ports.js';
import { fileStatOf } from './stat-key.js';

/** One find run over a workspace. */
export interface PrefetchedListing {
  /** The real path find listed. */
  readonly root: string;
  /** Date.now() when find was started: no stat in the listing is older. */
  readonly startedAt: number;
  /**
   * SHA-256 (hex) of the listing (type, size, mtime, ctime, inode and path of every folder, markdown
   * file and config file, and a mark for any entry of another kind, in find's order) and the root; undefined when the listing cannot stand for a walk: find reported an error
   * (an unreadable folder), or an entry is neither a regular file nor a folder (a symlink, whose
   * target's changes the listing would not show; a FIFO or device, which the walk reports).
   */
  readonly digest: string | undefined;
  /** Absolute path → stat of every regular file listed: the markdown files and the config (parsed on first call). */
  stats(): ReadonlyMap<string, FileStat>;
}

interface Pending {
  readonly root: string;
  readonly done: Promise<PrefetchedListing | undefined>;
  /** Keep the process alive until find is done (once something waits for it). */
  ref(): void;
}

/**
 * A listing stands for the workspace only this long after find started (ms): a one-shot call answers
 * well within it; anything that runs longer (a first build) lists and stats for itself.
 */
const LISTING_MAX_AGE_MS = 10_000;

/**
 * A listing larger than this (bytes, ~300,000 entries) is not read: a workspace that big walks as
 * before rather than hold its whole listing in memory.
 */
export const LISTING_MAX_BYTES = 32 * 1024 * 1024;

/** Bump when the record format below changes: a digest recorded from another format never matches. */
const LISTING_FORMAT = 'gitmem-listing 2';

/** Shared by the process entry (dist/cli.cjs) and the CLI bundle, which are two scripts. */
const SLOT = Symbol.for('gitmem.stat-prefetch');
type Slot = { [SLOT]?: Pending };

/** find's -printf record: type, size, mtime and ctime as seconds.nanoseconds, inode, path, NUL. */
const RECORD = '%y %s %T@ %C@ %i %p\\0';
/**
 * Put before the record of an entry that is neither a regular file nor a folder (a symlink, FIFO,
 * socket or device), so one search of the listing finds any: a record otherwise starts with its type.
 */
const OTHER = '!';

/**
 * find's arguments: under `root` (never pruned itself: -mindepth 1), links not followed, the folders
 * the walk never enters pruned; a record for every folder, every regular file the walk could read
 * (memory is markdown, core/layout.ts classify; and the workspace's config), and every entry of
 * another kind (marked {@link OTHER}). Other regular files (sources, build output) are neither
 * stat'ed nor printed: their type comes from the folder listing, and no walk reads them, so a tree
 * of 200,000 build files costs find a readdir, not 200,000 stats.
 */
function findArgs(root: string): string[] {
  return [
    root,
    '-mindepth',
    '1',
    '(',
    '-name',
    '.git',
    '-o',
    '-name',
    'node_modules',
    '-o',
    '-name',
    '.gitmem',
    ')',
    '-prune',
    '-o',
    '-type',
    'd',
    '-printf',
    RECORD,
    '-o',
    '-type',
    'f',
    '(',
    '-iname',
    '*.md',
    '-o',
    '-name',
    'gitmem.config.json',
    ')',
    '-printf',
    RECORD,
    '-o',
    '!',
    '-type',
    'f',
    '-printf',
    `${OTHER}${RECORD}`,
  ];
}

/**
 * GNU find at a fixed system path, never one found through PATH: the listing vouches for what a walk
 * would find, so it comes from the system's own tool (undefined when there is none there).
 */
function systemFind(): string | undefined {
  for (const p of ['/usr/bin/find', '/bin/find']) {
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * find is stopped once its listing has not grown for this long (ms), and its listing not used: the
 * call walks for itself rather than wait on a folder that hangs (a stale network mount). A find that
 * keeps printing is left to finish (within {@link LISTING_MAX_AGE_MS}): on a loaded machine a listing
 * of 100,000 files takes longer than this, and a walk of its own would cost the call more than the
 * rest of the listing (measured at load 17-30 on 2 cores: find needed 3-5 s of wall time, and a fixed
 * 3 s limit made every call walk in-process instead).
 */
export const LISTING_TIMEOUT_MS = 3000;

/** How often (ms) a running find's listing is checked for growth (at most; a shorter stall limit checks more often). */
const LISTING_POLL_MS = 250;

/** The decimal integer in `s` from `from` to `to` (digits only, as find prints them). */
function intAt(s: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (s.charCodeAt(i) - 48);
  return v;
}

/**
 * Milliseconds of find's `%T@` (`seconds.fraction`, the fraction in nanoseconds and beyond) exactly as
 * node:fs computes mtimeMs from the stat's two integers: sec * 1e3 + nsec / 1e6.
 */
function msAt(s: string, from: number, to: number): number {
  let dot = from;
  while (dot < to && s.charCodeAt(dot) !== 46) dot++;
  let nsec = 0;
  let k = 0;
  for (let i = dot + 1; i < to && k < 9; i++, k++) nsec = nsec * 10 + (s.charCodeAt(i) - 48);
  for (; k < 9; k++) nsec *= 10;
  return intAt(s, from, dot) * 1e3 + nsec / 1e6;
}

/** Whether `s` from `from` to `to` is a number as find prints %s, %i or %T@ (digits, at most one dot). */
function numeric(s: string, from: number, to: number, dotOk: boolean): boolean {
  if (to <= from) return false;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 && dotOk && dots++ === 0) continue;
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The listing as text: latin1 when it is ASCII (cheaper), else UTF-8; undefined when it is not valid UTF-8. */
function textOf(buf: Buffer): string | undefined {
  if (isAscii(buf)) return buf.toString('latin1');
  try {
    return strictUtf8.decode(buf);
  } catch {
    return undefined;
  }
}

/**
 * Parse find's output (`type size mtime ctime inode path` records, each ended by NUL; a cut-off last
 * record is dropped, and so is any record that does not have that shape): the regular files (type
 * `f`) by absolute path. `takenAt` goes on every stat.
 * The bytes are decoded once as a whole (latin1 when they are ASCII, which is cheaper) and scanned by
 * character code: a decode and five substrings per record took ~80 ms for 10,000 records.
 */
export function parseFindRecords(buf: Buffer, takenAt: number): Map<string, FileStat> {
  const out = new Map<string, FileStat>();
  const s = textOf(buf);
  // A name that is not UTF-8 would decode to U+FFFD and could stand for another file of the same
  // decoded name (the walk skips such names, B56): then no stat is taken from the listing at all.
  if (s === undefined) return out;
  for (let start = 0; ;) {
    const end = s.indexOf('\0', start);
    if (end < 0) break;
    if (s.charCodeAt(start) !== 102 /* f */ || s.charCodeAt(start + 1) !== 32) {
      start = end + 1;
      continue;
    }
    const a = s.indexOf(' ', start + 2);
    const b = a < 0 ? -1 : s.indexOf(' ', a + 1);
    const c = b < 0 ? -1 : s.indexOf(' ', b + 1);
    const d = c < 0 ? -1 : s.indexOf(' ', c + 1);
    if (
      d >= 0 &&
      d < end &&
      numeric(s, start + 2, a, false) &&
      numeric(s, a + 1, b, true) &&
      numeric(s, b + 1, c, true) &&
      numeric(s, c + 1, d, false)
    ) {
      const st = fileStatOf(
        intAt(s, start + 2, a),
        msAt(s, a + 1, b),
        msAt(s, b + 1, c),
        intAt(s, c + 1, d),
        false,
        takenAt,
      );
      out.set(s.slice(d + 1, end), st);
    }
    start = end + 1;
  }
  return out;
}

const OTHER_BYTE = OTHER.charCodeAt(0);
const OTHER_AFTER_RECORD = Buffer.from(`\0${OTHER}`, 'latin1');

/**
 * The digest of a listing (see {@link PrefetchedListing.digest}), or undefined when it has an entry
 * that is neither a regular file nor a folder (its record starts with {@link OTHER}) or was cut off.
 */
export function listingDigest(buf: Buffer, root: string): string | undefined {
  if (buf.length > 0 && buf[buf.length - 1] !== 0) return undefined; // cut off
  if (buf[0] === OTHER_BYTE || buf.indexOf(OTHER_AFTER_RECORD) >= 0) return undefined;
  // What find printed is of this root (its first record names a path under it).
  if (buf.length > 0) {
    const first = buf.subarray(0, buf.indexOf(0)).toString('utf8');
    if (!first.includes(` ${root}/`)) return undefined;
  }
  return createHash('sha256').update(`${LISTING_FORMAT}\0${root}\0`).update(buf).digest('hex');
}

/** The size of `fd`'s file (bytes); 0 when it cannot be read. */
function sizeOf(fd: number): number {
  try {
    return fstatSync(fd).size;
  } catch {
    return 0;
  }
}

/** The whole of a file descriptor's file, read from offset 0; undefined past {@link LISTING_MAX_BYTES}. */
function readAll(fd: number): Buffer | undefined {
  const size = fstatSync(fd).size;
  if (size > LISTING_MAX_BYTES) return undefined;
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n <= 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * GITMEM_LISTING: `off` never takes a listing, `on` takes it for any workspace, and `auto` (unset,
 * or any other value) leaves it to the caller's size rule (cli/entry.ts).
 */
export function listingMode(): 'off' | 'on' | 'auto' {
  const v = process.env.GITMEM_LISTING?.trim().toLowerCase();
  return v === 'off' || v === '0' || v === 'false' ? 'off' : v === 'on' || v === '1' || v === 'true' ? 'on' : 'auto';
}

/**
 * Start find over `root` (a real path) in the background, its output going to a file in `scratchDir`
 * (an existing folder of gitmem's) that is unlinked at once. Linux only. Any failure (no find, not
 * GNU find, no scratch file) only means no prefetch: the walk then lists and stats for itself.
 */
export function startListingPrefetch(root: string, scratchDir: string): void {
  if (process.platform !== 'linux') return;
  const slot = globalThis as Slot;
  if (slot[SLOT]) return;
  const run = runListing(root, scratchDir);
  if (run) slot[SLOT] = { root, ...run };
}

/**
 * Run find over `root` now (see {@link startListingPrefetch}); undefined when its output file cannot
 * be made. `options` (tests): another find program, another time limit. `done` settles when find ends (undefined when it failed); `ref` keeps the process alive
 * until then (the child is unref'd so a call that never asks does not wait for it).
 */
export function runListing(
  root: string,
  scratchDir: string,
  options: { readonly find?: string; readonly timeoutMs?: number } = {},
): { done: Promise<PrefetchedListing | undefined>; ref(): void } | undefined {
  let fd: number;
  const file = join(scratchDir, `.listing-${process.pid}`);
  try {
    // Never through a symlink planted at the name (O_NOFOLLOW); the name is this process's own.
    fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(file);
  } catch {
    /* still usable; the name is this process's own */
  }
  const startedAt = Date.now();
  let child: ReturnType<typeof spawn> | undefined;
  const done = new Promise<PrefetchedListing | undefined>((resolve) => {
    const stop = () => child?.kill();
    // A find whose listing stops growing (or that outruns what a listing may stand for, in age or
    // size) is stopped, and the call walks for itself.
    const stallMs = options.timeoutMs ?? LISTING_TIMEOUT_MS;
    let grown = { bytes: 0, at: startedAt };
    const timer = setInterval(
      () => {
        const now = Date.now();
        const bytes = sizeOf(fd);
        if (bytes > grown.bytes) grown = { bytes, at: now };
        if (now - grown.at < stallMs && now - startedAt < LISTING_MAX_AGE_MS && bytes <= LISTING_MAX_BYTES) return;
        child?.kill('SIGKILL');
        finish(null);
      },
      Math.min(LISTING_POLL_MS, Math.max(10, stallMs >> 2)),
    );
    timer.unref();
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return; // 'error' and 'exit' can both come
      settled = true;
      clearInterval(timer);
      process.off('exit', stop);
      let result: PrefetchedListing | undefined;
      try {
        // 0: listed in full; 1: some folder was unreadable, and what find printed is still true (no digest).
        const buf = code === 0 || code === 1 ? readAll(fd) : undefined;
        if (buf) {
          let stats: Map<string, FileStat> | undefined;
          result = {
            root,
            startedAt,
            digest: code === 0 ? listingDigest(buf, root) : undefined,
            stats: () => (stats ??= parseFindRecords(buf, startedAt)),
          };
        }
      } catch {
        result = undefined;
      }
      try {
        closeSync(fd);
      } catch {
        /* closed */
      }
      resolve(result);
    };
    try {
      const find = options.find ?? systemFind();
      if (!find) {
        finish(null);
        return;
      }
      child = spawn(find, findArgs(root), { stdio: ['ignore', fd, 'ignore'], windowsHide: true });
    } catch {
      finish(null);
      return;
    }
    // Never outlives this process, and never keeps it alive when nothing asks for it.
    process.once('exit', stop);
    child.unref();
    child.once('error', () => finish(null));
    child.once('exit', (code, signal) => finish(signal === null ? code : null));
  });
  return { done, ref: () => child?.ref() };
}

/**
 * The listing find made of the workspace at `root` (a real path), once find is done; undefined
 * when none was started for it (or it failed). The same listing for every caller of this process.
 */
export function prefetchedListing(root: string): Promise<PrefetchedListing | undefined> | undefined {
  const p = (globalThis as Slot)[SLOT];
  if (!p || p.root !== root) return undefined;
  p.ref();
  return p.done;
}

/**
 * `l` when it still stands for `root` (a real path) now: a listing of that root, younger than
 * {@link LISTING_MAX_AGE_MS}; else undefined.
 */
export function currentListing(l: PrefetchedListing | undefined, root: string): PrefetchedListing | undefined {
  return l && l.root === root && Date.now() - l.startedAt <= LISTING_MAX_AGE_MS ? l : undefined;
}

/**
 * The digest of this process's listing of `root` (a real path) for a host to check instead of
 * walking (host/protocol.ts HostRequest.listing), once find is done ({@link currentListing});
 * undefined without one, or when it cannot stand for a walk.
 */
export async function prefetchedDigest(root: string): Promise<string | undefined> {
  return currentListing(await prefetchedListing(root), root)?.digest;
}
