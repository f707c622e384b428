// Interfaces the core and service need from the outside world; platform/ implements them.
// Imports only core types.
import type { Disposable, Event } from './events.js';
import type { RelPath } from './paths.js';

/** What {@link MemoryFs.stat} reports. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly isDirectory: boolean;
  /**
   * Opaque key of size, mtime, ctime and inode (platform/node-fs.ts `statKey`: equal keys, same four
   * values), or absent when the source cannot tell (then: re-read).
   */
  readonly key?: string;
  /**
   * When the stat was taken (epoch ms), present when that was before the call that returned it (a
   * stat prefetched at process start, platform/stat-prefetch.ts): the racy window ({@link RACY_MS})
   * is counted from here.
   */
  readonly takenAt?: number;
}

/**
 * A file whose mtime is this close to (or after) the moment its stat is taken may still be rewritten
 * within the same timestamp tick (coarse file-system clocks: 1 s on some, 2 s on FAT), so a stat key
 * taken then does not vouch for its content: it is not recorded, and the next look re-reads and
 * re-hashes the file ("racy" in git's index terms). Milliseconds. The one window for every stat key
 * kept: the memory files' (engine/load/load.ts, engine/freshness/sync.ts) and the model files' (indexes/embed/model-hashes.ts).
 */
export const RACY_MS = 2000;

/** File access confined to one workspace root. Every path is a {@link RelPath}. */
export interface MemoryFs {
  /** Absolute root, for messages and for libraries that need a real path (git). */
  readonly root: string;
  /**
   * @returns the file's bytes, or undefined if it does not exist.
   * @throws MemoryError `path.outside-root` when a symlink leads outside the root; `fs.read-failed` otherwise.
   */
  read(path: RelPath): Promise<Uint8Array | undefined>;
  /**
   * Like {@link read}, and says whether the file's size or mtime moved while it was read (a save in
   * progress): the caller then keeps what it had. Optional: fakes without it are always stable.
   * @throws as {@link read}, and MemoryError `fs.not-regular` / `fs.too-large` from bounded readers.
   */
  readChecked?(path: RelPath): Promise<{ bytes: Uint8Array; unstable: boolean } | undefined>;
  /**
   * Write via temp file in the same folder + fsync + rename, so readers never see partial content.
   * Creates parent folders. A file whose current bytes are not valid UTF-8 is not replaced: its text
   * as read had U+FFFD in their place, so the write would lose them (R55). `carried`: memory text
   * this write copies as it stands (the state archive of `state new`): its lines that carry an allow
   * mark keep it in the write guard (core/write-guard.ts).
   * @throws MemoryError `fs.write-failed`, `path.outside-root`, `fs.not-utf8`, `secret.found`, `injection.marked`.
   */
  writeTextAtomic(path: RelPath, text: string, carried?: string): Promise<void>;
  /**
   * {@link writeTextAtomic} of exact bytes: for a write that keeps a file's own bytes and adds to
   * them (a daily-note append), so bytes that are not valid UTF-8 are kept as they are, never decoded
   * and re-encoded (docs/bad-inputs.md R55). The same guards run on the bytes as text (`carried` as
   * there). Required.
   * @throws as {@link writeTextAtomic}.
   */
  writeBytesAtomic(path: RelPath, bytes: Uint8Array, carried?: string): Promise<void>;
  /**
   * Create `path` with `text` only if it does not exist yet, atomically: the complete content appears
   * at once or not at all (temp file + fsync + hard link, which fails when the name is taken), so two
   * writers choosing the same name never overwrite each other and a kill never leaves a partial file.
   * Creates parent folders. Required: every new file a write path creates goes through it.
   * @returns false when the file already exists (nothing written).
   * @throws MemoryError `fs.write-failed`, `path.outside-root`.
   */
  createTextExclusive(path: RelPath, text: string): Promise<boolean>;
  /**
   * Run the guards a write of `text` to `path` would run (confinement, NUL bytes, secret scan against
   * the file's current text) without writing anything, so a caller planning several writes can refuse
   * them all before the first. Required (a fake with no guards of its own resolves). `create`: the
   * write makes a new file (an exclusive create under a free name, {@link createTextExclusive}), so a
   * file now at `path` is not what it replaces: its text is neither the baseline of the scan nor
   * refused for bytes that are not UTF-8.
   * @throws MemoryError as {@link writeTextAtomic} would for this write (`path.outside-root`, `usage`, `secret.found`,
   *   `fs.not-utf8`).
   */
  checkWrite(path: RelPath, text: string, options?: { readonly create?: boolean }): Promise<void>;
  /**
   * Delete a file (missing is fine). Used by discarding an added memory file.
   * @throws MemoryError `fs.write-failed`, `path.outside-root`.
   */
  remove(path: RelPath): Promise<void>;
  /**
   * Run `fn` while holding a cross-process advisory lock on `path` (a `.<name>.lock` file next to it,
   * pid inside; a lock whose process is gone is broken). For read-modify-write of one file by
   * several processes (daily-note appends, remember, the working state, the dream audit). Required:
   * no write path runs unlocked; a single-process fake still runs `fn` one at a time per path.
   * @throws MemoryError `fs.conflict` when a live holder keeps the lock past `waitMs` (default 10 s);
   *   `fs.write-failed` when the lock file cannot be created.
   */
  withFileLock<T>(path: RelPath, fn: () => Promise<T>, options?: { waitMs?: number }): Promise<T>;
  /**
   * Rename a file inside the root (folders created), never replacing an existing file: a hard link
   * to the new name, then the old name removed, and the folders that leaves empty (never the root).
   * @returns false when `to` already exists (nothing changed).
   * @throws MemoryError `fs.not-found` when `from` is missing, `path.outside-root`, `fs.write-failed`.
   */
  renameFile(from: RelPath, to: RelPath): Promise<boolean>;
  /**
   * Where `path` really is inside the root, symlinks resolved (the deepest existing part, with the
   * rest of the path appended): a caller confined to one folder of the workspace checks the answer
   * (the memory-tool backend). Optional: fakes without it have no symlinks.
   * @throws MemoryError `path.outside-root` when a symlink leads outside the root.
   */
  realPath?(path: RelPath): Promise<RelPath>;
  /**
   * @returns size in bytes and mtime in ms, or undefined when missing. `key` (optional) identifies
   * this exact state of the file the way git's index does: size, mtime and ctime in nanoseconds and
   * the inode; equal keys mean the file was not rewritten since (up to racy timestamps, see
   * {@link RACY_MS}). Without a key (editor buffers, fakes) callers re-read the file.
   */
  stat(path: RelPath): Promise<FileStat | undefined>;
  /**
   * {@link stat} of many paths at once, in their order (undefined where missing or unreadable): the
   * freshness walk stats every memory file, and one promise per file cost more than the syscalls.
   * Optional: callers fall back to {@link stat} per path.
   * @throws as {@link stat} when any path is refused (callers then stat path by path).
   */
  statAll?(paths: readonly RelPath[]): Promise<(FileStat | undefined)[]>;
  /**
   * A digest of the workspace as it was listed when this process started (type, size, mtime, ctime,
   * inode and path of every folder, markdown file and config file: what a walk could read), or undefined when there is none that can stand for a walk
   * (no listing was made, or it met an unreadable folder, a symlink or a special file). Equal digests
   * mean no entry changed in between. Optional: callers then always walk (engine/freshness/walk-digest.ts).
   */
  listingDigest?(): Promise<string | undefined>;
  /**
   * Every regular file under the root (symlinks followed only while they stay inside the root; loops
   * skipped), filtered by `accept`, sorted. Unreadable folders are skipped and reported via `onSkip`;
   * a path `accept` takes that is there but cannot be read as a file (a FIFO, socket or device, a
   * broken link) is reported with `unreadable` set, so the loader can make it a diagnostic (U60).
   */
  list(
    accept: (path: RelPath) => boolean,
    onSkip?: (path: string, reason: string, unreadable?: boolean) => void,
    /**
     * When `accept` takes more than the caller keeps (every markdown path while it waits to classify):
     * whether a path is one the caller keeps. Two paths to one real file (a symlink) keep one; a path
     * this says no to never wins over a link the caller keeps.
     */
    taken?: (path: RelPath) => boolean,
  ): Promise<RelPath[]>;
}

/**
 * Name prefix of every file a streamed full build writes in the index folder: `stream-<pid>-…`, the
 * pid of the process that writes it (see {@link IndexStorage.localFolder}).
 */
export const STREAM_PREFIX = 'stream-';

/** Derived-state storage (indexes, manifest) in one folder outside the work tree. */
export interface IndexStorage {
  /** Absolute folder, for `doctor` and messages. */
  readonly location: string;
  /** @returns the artifact's bytes, or undefined when missing. */
  read(name: string): Promise<Uint8Array | undefined>;
  /** Atomic replace (temp + fsync + rename). @throws MemoryError `index.write-failed`. */
  write(name: string, data: Uint8Array | string): Promise<void>;
  /** Remove an artifact; missing is fine. */
  remove(name: string): Promise<void>;
  /**
   * Append `text` to an artifact in one write (created when missing), for logs several processes add
   * lines to (the retrieval audit). Optional: without it callers read and replace.
   * @returns the artifact's size in bytes after the append. @throws MemoryError `index.write-failed`.
   */
  append?(name: string, text: string): Promise<number>;
  /** Rename an artifact, replacing `to` (atomic). Optional. @returns false when `from` is missing. */
  rename?(from: string, to: string): Promise<boolean>;
  /**
   * Open an artifact for reads at byte offsets (the vector table re-scores a few rows per query from
   * its float32 file instead of holding all of them). Optional: without it artifacts are read whole.
   * @returns undefined when the artifact is missing.
   * @throws MemoryError `index.corrupt` when it cannot be opened.
   */
  openRanged?(name: string): Promise<RangedFile | undefined>;
  /**
   * The folder's path when artifacts are plain files in it (created when missing). Optional: a
   * streamed full build (engine/spill-build.ts) then writes its runs and both artifacts there from
   * the keyword worker, under {@link STREAM_PREFIX}`<pid>-…` names that a save renames into artifacts
   * (`rename`). Files under such names whose process is gone (a build cut short by a crash, or never
   * saved) are removed before the path is returned.
   */
  localFolder?(): Promise<string>;
  /**
   * Stat key of an artifact (`size:mtimeNs:ctimeNs:inode`), or undefined when it is missing or the
   * file system's timestamps are too coarse (whole seconds) for a stat to vouch for the bytes.
   * Optional: without it every load hashes every artifact in full.
   */
  statKey?(name: string): Promise<string | undefined>;
  /**
   * Take the single-writer lock of this folder (B37): at most one process writes the index at a
   * time. A lock left by a process that no longer runs is recovered. Optional: storage without it
   * (in-memory fakes) is single-process by nature.
   * @param options.waitMs how long to wait for a live holder; 0 = try once. Default 0.
   * @param options.name another lock of the folder than the index's (`<name>.lock`, an artifact
   *   name): a small artifact several processes read, change and replace (the writer record) holds
   *   its own, so it never waits for an index build.
   * @returns a release function, or undefined when another live process holds the lock.
   */
  lock?(options?: { waitMs?: number; purpose?: string; name?: string }): Promise<IndexLock | undefined>;
}

/**
 * An artifact opened for reads at byte offsets. Reads are synchronous (a few KB a call, from the
 * page cache): a query re-scores its candidate rows without awaiting. The file stays what it was
 * when opened: artifacts are only ever replaced by rename, never rewritten in place.
 */
export interface RangedFile {
  /** Byte length when opened. */
  readonly size: number;
  /**
   * Fill `target` from byte `position`. @returns bytes read (fewer only past the end).
   * @throws MemoryError `index.corrupt` on an I/O error or once closed.
   */
  read(target: Uint8Array, position: number): number;
  /** Release the file (idempotent). */
  close(): void;
}

/** A held index-folder lock. */
export interface IndexLock {
  /** Release the lock (idempotent). */
  release(): Promise<void>;
}

/**
 * One coalesced burst of file-system changes (workspace-relative memory paths, de-duplicated,
 * sorted). A path is in exactly one list; deletes win: a path whose file is gone when the burst
 * settles is `deleted`, whatever events came before.
 */
export interface FileChangeBatch {
  readonly created: readonly RelPath[];
  readonly changed: readonly RelPath[];
  readonly deleted: readonly RelPath[];
}

/** A file the watcher could not follow (symlink loop, unreadable, outside the root). */
export interface WatchProblem {
  readonly path: string;
  readonly reason: string;
}

/** Watches one workspace folder and reports coalesced, settled batches of memory-file changes. */
export interface FileWatcher extends Disposable {
  /** Coalesced: one event per burst, paths de-duplicated, deletes win over changes. */
  readonly onDidChangeFiles: Event<FileChangeBatch>;
  /** A path that was skipped (reported once per path and reason); the watcher keeps going. */
  readonly onDidSkip: Event<WatchProblem>;
  /** Resolves when the initial scan is done and events are flowing. */
  readonly ready: Promise<void>;
  /** `native` (inotify/FSEvents) or `polling` (after ENOSPC/EMFILE, or when asked). */
  readonly mode: 'native' | 'polling';
  /** Deliver whatever is pending now (skip the debounce); resolves when it has been emitted. */
  flush(): Promise<void>;
  /** Stop watching; pending changes are dropped. */
  close(): Promise<void>;
}

/** What the service tells a watcher factory. */
export interface WatchOptions {
  /** Absolute workspace root (the folder watched). */
  readonly root: string;
  /** Is this workspace-relative file path memory (e.g. a `*.md` the layout classifies)? */
  readonly accept: (path: RelPath) => boolean;
  /** Is this workspace-relative folder to be skipped entirely (ignored folders)? `.git` always is. */
  readonly ignoreDir?: (path: string) => boolean;
  /** Absolute folders never watched (the index folder when it sits inside the root). */
  readonly ignoreAbsolute?: readonly string[];
  /** Absolute git dir: while its `index.lock` exists (checkout, rebase), batches are held. */
  readonly gitdir?: string;
  /** Quiet time that ends a burst (ms). */
  readonly debounceMs?: number;
  /** Longest a burst is held before it is delivered anyway (ms). */
  readonly maxWaitMs?: number;
  /** Warnings for the user (watch limit reached → polling, watcher errors). */
  readonly onWarning?: (message: string) => void;
}

/** Creates a {@link FileWatcher}; platform/watcher.ts implements it over chokidar. */
export type WatcherFactory = (options: WatchOptions) => FileWatcher;

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Clock {
  now(): Date;
}

export const nullLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
export const systemClock: Clock = { now: () => new Date() };
