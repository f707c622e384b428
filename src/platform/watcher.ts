// FileWatcher over chokidar (the ONLY chokidar importer). Watches the workspace folder (never single
// files: B15), ignores `.git` at any depth with a function on path segments (B18), the index folder,
// ignored folders and every file the layout does not classify as memory. Events are coalesced into
// one batch per burst (debounce + max wait; held while git's index.lock exists, so a checkout or a
// rebase gives one batch: B17); unlink followed by add is a change (atomic saves: B15/B16); a file is
// delivered only once its size and content hash are stable (half-written files: B16), longer for
// content that looks unfinished; a change whose content hash equals the last delivered one is
// dropped (our own writes, touch-only saves: B18). ENOSPC/EMFILE → a warning and polling; a symlink
// loop or an unreadable file is reported once and skipped. Imports core, node:* and chokidar.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { watch as chokidarWatch, type ChokidarOptions, type FSWatcher } from 'chokidar';
import { Debouncer } from '../core/debounce.js';
import { Emitter } from '../core/events.js';
import { SerialQueue } from '../core/serial.js';
import { MemoryError } from '../core/errors.js';
import { DEFAULT_MAX_READ_BYTES, readBounded } from './safe-read.js';
import { nameProblem, tryRelPath, type RelPath } from '../core/paths.js';
import { shownControls } from '../core/text.js';
import type { FileChangeBatch, FileWatcher, WatchOptions, WatchProblem } from '../core/ports.js';

/** Options of {@link createChokidarWatcher} beyond the port's {@link WatchOptions}. */
export interface ChokidarWatcherOptions extends WatchOptions {
  /** Start in polling mode (network drives, or to test the fallback). Default false. */
  readonly usePolling?: boolean;
  /** Polling interval (ms). Default 300. */
  readonly pollIntervalMs?: number;
  /** A file must keep the same size and hash this long to be delivered (ms). Default 25. */
  readonly stableMs?: number;
  /** Stability window for content that looks unfinished (empty, unclosed front-matter, no final newline). Default 500. */
  readonly unsettledMs?: number;
  /** Largest file read to settle an event, in bytes (default 64 MiB); larger ones are reported. */
  readonly maxReadBytes?: number;
  /** Substitute for chokidar's `watch` (tests wrap the real one, e.g. to inject an ENOSPC error). */
  readonly chokidarWatch?: (paths: string, options: ChokidarOptions) => FSWatcher;
}

type Seen = 'add' | 'change' | 'unlink';

interface Pending {
  first: Seen;
  /** The path was known to exist before this burst. */
  existed: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Content that is probably still being written: re-check over a longer window. */
function looksUnfinished(bytes: Buffer): boolean {
  if (bytes.length === 0) return true;
  if (bytes[bytes.length - 1] !== 0x0a) return true;
  const head = bytes.subarray(0, 3).toString('utf8') === '---' ? bytes.toString('utf8') : undefined;
  if (head !== undefined) {
    const lines = head.replace(/^\uFEFF/, '').split(/\r?\n/);
    if (/^---\s*$/.test(lines[0] ?? '') && !lines.slice(1).some((l) => /^(---|\.\.\.)\s*$/.test(l))) return true;
  }
  return false;
}

function digest(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/**
 * Watch `options.root` with chokidar and deliver settled, coalesced batches of memory-file changes.
 * The returned watcher is live at once; await `ready` before relying on events.
 */
export function createChokidarWatcher(options: ChokidarWatcherOptions): FileWatcher {
  const root = options.root;
  let realRoot = root;
  try {
    realRoot = realpathSync(root);
  } catch {
    /* chokidar reports a missing root */
  }
  const debounceMs = options.debounceMs ?? 50;
  const maxWaitMs = options.maxWaitMs ?? 2000;
  const stableMs = options.stableMs ?? 25;
  const unsettledMs = options.unsettledMs ?? 500;
  const ignoreAbs = (options.ignoreAbsolute ?? []).map((a) => a.replace(/[\\/]+$/, ''));
  const onChange = new Emitter<FileChangeBatch>();
  const onSkip = new Emitter<WatchProblem>();
  const reported = new Set<string>();
  /** Files known to exist (from the initial scan and later events). */
  const known = new Set<string>();
  /** Content hash last delivered per path (B18). */
  const delivered = new Map<string, string>();
  let pending = new Map<string, Pending>();
  // One burst → one batch: quiet for debounceMs, or maxWaitMs after its first event (core/debounce.ts).
  const burstTimer = new Debouncer((cause) => void flushNow(cause === 'max-wait'), { delayMs: debounceMs, maxWaitMs });
  /** Bursts are settled and delivered one at a time, in order (core/serial.ts). */
  const emitting = new SerialQueue();
  let closed = false;
  let initial = true;
  let mode: 'native' | 'polling' = options.usePolling ? 'polling' : 'native';
  let fsw: FSWatcher;
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));

  const report = (path: string, reason: string) => {
    const key = `${path}\0${reason}`;
    if (reported.has(key)) return;
    reported.add(key);
    onSkip.fire({ path, reason });
  };

  /** Workspace-relative POSIX path of a chokidar path (absolute, or relative to the root). */
  const relOf = (p: string): string => {
    const r = isAbsolute(p) ? relative(root, p) : p;
    return r.split(sep).join('/');
  };

  const ignored = (p: string, stats?: Stats): boolean => {
    const abs = isAbsolute(p) ? p : join(root, p);
    if (ignoreAbs.some((a) => abs === a || abs.startsWith(a + sep))) return true;
    const rel = relOf(p);
    if (rel === '' || rel === '.') return false;
    if (rel.startsWith('..')) return true;
    if (rel.split('/').includes('.git')) return true;
    if (stats?.isFile()) {
      const badName = nameProblem(rel);
      if (badName !== undefined) {
        report(shownControls(rel).replace(/\n/g, '\u240a'), badName);
        return true;
      }
      const r = tryRelPath(rel);
      return r === undefined || !options.accept(r);
    }
    if (stats?.isDirectory()) {
      if (options.ignoreDir?.(rel)) return true;
      // A symlinked folder that leads to one of its own ancestors (a loop) or out of the root.
      try {
        const real = realpathSync(abs);
        if (real !== abs) {
          const up = relative(real, abs);
          if (up === '' || (!up.startsWith('..') && !isAbsolute(up))) {
            report(rel, 'symlink loop');
            return true;
          }
          const inRoot = relative(realRoot, real);
          if (inRoot.startsWith('..') || isAbsolute(inRoot)) {
            report(rel, 'symlink leads outside the workspace');
            return true;
          }
        }
      } catch {
        /* vanished or unreadable: chokidar reports it */
      }
      return false;
    }
    // No stats yet (chokidar asks twice): skip only what is certainly ignored.
    return options.ignoreDir?.(rel) ?? false;
  };

  const schedule = () => {
    if (closed) return;
    burstTimer.schedule();
  };

  const record = (event: Seen, p: string) => {
    const rel = relOf(p);
    const r = tryRelPath(rel);
    if (!r || !options.accept(r)) return;
    const badName = nameProblem(rel);
    if (badName !== undefined) return report(shownControls(rel).replace(/\n/g, '\u240a'), badName);
    if (initial) {
      if (event === 'add') known.add(rel);
      return;
    }
    const cur = pending.get(rel);
    if (!cur) pending.set(rel, { first: event, existed: known.has(rel) });
    if (event === 'unlink') known.delete(rel);
    else known.add(rel);
    schedule();
  };

  /** Settle one path: its final state on disk, once size and hash hold still. */
  const settle = async (
    rel: string,
  ): Promise<{ state: 'gone' } | { state: 'present'; hash: string } | { state: 'unsettled' } | { state: 'error' }> => {
    const abs = join(root, ...rel.split('/'));
    let prev: { size: number; hash: string } | undefined;
    const deadline = Date.now() + Math.max(unsettledMs * 4, 2000);
    for (;;) {
      let bytes: Buffer;
      try {
        // Type and size are checked on the open handle before reading, and the read is bounded: a
        // symlink to /dev/zero or a FIFO named .md is reported, never read without end (or waited on).
        const r = await readBounded(abs, rel, options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES);
        if (!r) return { state: 'gone' };
        bytes = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
      } catch (e) {
        if (e instanceof MemoryError) {
          report(rel, e.message);
          return { state: 'error' };
        }
        const code = (e as NodeJS.ErrnoException).code;
        report(rel, code === 'ELOOP' ? 'symlink loop' : `unreadable (${code ?? (e as Error).message})`);
        return { state: 'error' };
      }
      const cur = { size: bytes.length, hash: digest(bytes) };
      if (prev && prev.size === cur.size && prev.hash === cur.hash) return { state: 'present', hash: cur.hash };
      if (Date.now() > deadline) return { state: 'unsettled' };
      prev = cur;
      await sleep(looksUnfinished(bytes) ? unsettledMs : stableMs);
      if (closed) return { state: 'unsettled' };
      // A newer event for this path arrived meanwhile: let that burst handle it.
      if (pending.has(rel)) return { state: 'unsettled' };
    }
  };

  const flushNow = (force: boolean): Promise<void> => {
    const run = async () => {
      if (closed || pending.size === 0) return;
      // git is writing the work tree (checkout, rebase, merge): hold the burst until it is done.
      // The burst keeps its max-wait clock (core/debounce.ts extend): it is delivered at the latest
      // maxWaitMs after its first event, as a `max-wait` (forced) run.
      if (!force && options.gitdir && existsSync(join(options.gitdir, 'index.lock'))) {
        burstTimer.extend();
        return;
      }
      burstTimer.cancel();
      const burst = pending;
      pending = new Map();
      const created: RelPath[] = [];
      const changed: RelPath[] = [];
      const deleted: RelPath[] = [];
      const settled = await Promise.all([...burst.keys()].map(async (rel) => [rel, await settle(rel)] as const));
      for (const [rel, s] of settled) {
        const info = burst.get(rel)!;
        const r = rel as RelPath;
        if (s.state === 'gone') {
          known.delete(rel);
          if (info.existed || delivered.has(rel)) deleted.push(r);
          delivered.delete(rel);
        } else if (s.state === 'present') {
          known.add(rel);
          if (delivered.get(rel) === s.hash) continue; // same content as delivered last (B18)
          delivered.set(rel, s.hash);
          if (info.existed) changed.push(r);
          else created.push(r);
        } else if (s.state === 'unsettled' && !closed) {
          // Still being written (or a newer event came): keep it for the next burst.
          if (!pending.has(rel)) pending.set(rel, info);
          schedule();
        }
      }
      if (closed || created.length + changed.length + deleted.length === 0) return;
      const sort = (a: RelPath[]) => a.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      onChange.fire({ created: sort(created), changed: sort(changed), deleted: sort(deleted) });
    };
    return emitting.run(run);
  };

  const onError = (e: unknown) => {
    const err = e as NodeJS.ErrnoException;
    const code = err?.code;
    if ((code === 'ENOSPC' || code === 'EMFILE') && mode === 'native') {
      mode = 'polling';
      options.onWarning?.(
        `the system limit on file watchers is reached (${code}); watching ${root} by polling instead ` +
          '(raise fs.inotify.max_user_watches to go back to native events)',
      );
      const old = fsw;
      initial = true; // the new watcher's initial scan only refreshes `known`
      start(true);
      void old.close();
      return;
    }
    const path = typeof err?.path === 'string' ? relOf(err.path) : '';
    report(path, code === 'ELOOP' ? 'symlink loop' : `watcher error: ${code ?? err?.message ?? String(e)}`);
  };

  function start(polling: boolean): void {
    const opts: ChokidarOptions = {
      ignored,
      ignoreInitial: false,
      persistent: true,
      followSymlinks: true,
      atomic: true,
      ignorePermissionErrors: false,
      usePolling: polling,
      interval: options.pollIntervalMs ?? 300,
      binaryInterval: options.pollIntervalMs ?? 300,
    };
    const w = (options.chokidarWatch ?? chokidarWatch)(root, opts);
    fsw = w;
    w.on('add', (p) => record('add', p));
    w.on('change', (p) => record('change', p));
    w.on('unlink', (p) => record('unlink', p));
    w.on('unlinkDir', (p) => {
      // A removed folder: every known file under it is gone (chokidar may not report each one).
      const prefix = `${relOf(p)}/`;
      for (const k of [...known]) if (k.startsWith(prefix)) record('unlink', join(root, ...k.split('/')));
    });
    w.on('error', onError);
    w.on('ready', () => {
      if (fsw !== w) return;
      initial = false;
      readyResolve();
    });
  }

  start(mode === 'polling');

  return {
    onDidChangeFiles: onChange.event,
    onDidSkip: onSkip.event,
    ready,
    get mode() {
      return mode;
    },
    async flush() {
      if (pending.size) await flushNow(true);
      await emitting.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      burstTimer.dispose();
      readyResolve();
      await fsw.close();
      onChange.dispose();
      onSkip.dispose();
    },
    dispose() {
      void this.close();
    },
  };
}
