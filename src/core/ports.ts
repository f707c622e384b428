// Interfaces the core and service need from the outside world; platform/ implements them.
// Imports only core types.
import type { RelPath } from './paths.js';

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
   * Write via temp file in the same folder + fsync + rename, so readers never see partial content.
   * Creates parent folders. @throws MemoryError `fs.write-failed`, `path.outside-root`.
   */
  writeTextAtomic(path: RelPath, text: string): Promise<void>;
  /** @returns size in bytes and mtime in ms, or undefined when missing. */
  stat(path: RelPath): Promise<{ size: number; mtimeMs: number; isDirectory: boolean } | undefined>;
  /**
   * Every regular file under the root (symlinks followed only while they stay inside the root; loops
   * skipped), filtered by `accept`, sorted. Unreadable folders are skipped and reported via `onSkip`.
   */
  list(accept: (path: RelPath) => boolean, onSkip?: (path: string, reason: string) => void): Promise<RelPath[]>;
}

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
}

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
