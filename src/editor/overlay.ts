// Open-buffer overlay: a MemoryFs whose reads return the editor's unsaved text for open documents
// and fall through to the disk otherwise (the VS Code "dirty document wins until closed" rule).
// Writes go to the disk; disk reads report an unstable read (changed while read) as the base
// does. deps: core only (the base MemoryFs is injected).
import type { RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';

/** A {@link MemoryFs} plus the open-document table that overrides it. */
export interface OverlayFs extends MemoryFs {
  /** Record the editor text of an open document (replaces any earlier text). */
  set(path: RelPath, text: string): void;
  /** Forget the open document: reads see the disk again. @returns true when it was open. */
  delete(path: RelPath): boolean;
  /** @returns the editor text, or undefined when the document is not open. */
  get(path: RelPath): string | undefined;
  /** Paths of the open documents. */
  paths(): RelPath[];
}

const encoder = new TextEncoder();

/** Wrap `base` so open documents' text overrides the disk. */
export function createOverlayFs(base: MemoryFs): OverlayFs {
  const open = new Map<RelPath, { text: string; bytes: Uint8Array | undefined; mtimeMs: number }>();
  const bytesOf = (e: { text: string; bytes: Uint8Array | undefined }) => (e.bytes ??= encoder.encode(e.text));
  return {
    root: base.root,
    async read(path) {
      const e = open.get(path);
      return e ? bytesOf(e) : base.read(path);
    },
    // An open document is stable (the buffer); a disk read reports what the base saw, so indexing
    // keeps a file's last good state when it changed during the read, as on the CLI path.
    async readChecked(path) {
      const e = open.get(path);
      if (e) return { bytes: bytesOf(e), unstable: false };
      if (base.readChecked) return base.readChecked(path);
      const bytes = await base.read(path);
      return bytes ? { bytes, unstable: false } : undefined;
    },
    async writeTextAtomic(path, text, carried) {
      await base.writeTextAtomic(path, text, carried);
    },
    writeBytesAtomic: (path, bytes, carried) => base.writeBytesAtomic(path, bytes, carried),
    // Every write, lock and guard is the disk's: a remember or an append from the language server
    // takes the same cross-process locks and exclusive creates as the CLI's (core/ports.ts).
    createTextExclusive: (path, text) => base.createTextExclusive(path, text),
    checkWrite: (path, text, options) => base.checkWrite(path, text, options),
    withFileLock: (path, fn, options) => base.withFileLock(path, fn, options),
    renameFile: (from, to) => base.renameFile(from, to),
    remove: (path) => base.remove(path),
    async stat(path) {
      const e = open.get(path);
      if (!e) return base.stat(path);
      // Size is the editor text's; mtime changes with every edit so stat-based caches see the change.
      return { size: bytesOf(e).length, mtimeMs: e.mtimeMs, isDirectory: false };
    },
    async list(accept, onSkip, taken) {
      const listed = await base.list(accept, onSkip, taken);
      const extra = [...open.keys()].filter((p) => accept(p) && !listed.includes(p));
      return extra.length ? [...listed, ...extra].sort() : listed;
    },
    set(path, text) {
      const prev = open.get(path);
      if (prev && prev.text === text) return;
      open.set(path, { text, bytes: undefined, mtimeMs: Math.max(Date.now(), (prev?.mtimeMs ?? 0) + 1) });
    },
    delete(path) {
      return open.delete(path);
    },
    get(path) {
      return open.get(path)?.text;
    },
    paths() {
      return [...open.keys()];
    },
  };
}
