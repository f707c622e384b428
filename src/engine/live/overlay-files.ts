// The file states a snapshot of the live keyword index reads (engine/live/live-index-files.ts): a
// copy of the file map taken once (never changed after) with the few files changed since laid over
// it, so publishing a snapshot after a write costs the files changed since that copy, not a copy of
// every file (issue #44: at 10,000 files the copy per write was the largest part of publishing the
// snapshot of a warm MCP memory_remember). deps: engine (live-index-types, lazy-records, chunk-table).
import { byPath } from './chunk-table.js';
import { countOf } from './lazy-records.js';
import type { FileState } from './live-index-types.js';

/** A copy of the file map and what a snapshot needs of it, made once per {@link FrozenFiles.take}. */
export interface FrozenCopy {
  readonly files: ReadonlyMap<string, FileState>;
  readonly sorted: readonly string[];
  /** Chunks over all files. */
  readonly chunks: number;
}

/** Files of one snapshot: the copy's states, with `since` (null: removed) over them. Immutable. */
export class OverlayFiles implements ReadonlyMap<string, FileState> {
  readonly #base: ReadonlyMap<string, FileState>;
  readonly #since: ReadonlyMap<string, FileState | null>;
  readonly size: number;

  constructor(base: ReadonlyMap<string, FileState>, since: ReadonlyMap<string, FileState | null>) {
    this.#base = base;
    this.#since = since;
    let size = base.size;
    for (const [p, f] of since) size += (f ? 1 : 0) - (base.has(p) ? 1 : 0);
    this.size = size;
  }

  get(path: string): FileState | undefined {
    const f = this.#since.get(path);
    return f === undefined ? this.#base.get(path) : (f ?? undefined);
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  *entries(): MapIterator<[string, FileState]> {
    for (const [p, f] of this.#base) if (!this.#since.has(p)) yield [p, f];
    for (const [p, f] of this.#since) if (f) yield [p, f];
  }

  *keys(): MapIterator<string> {
    for (const [p] of this.entries()) yield p;
  }

  *values(): MapIterator<FileState> {
    for (const [, f] of this.entries()) yield f;
  }

  [Symbol.iterator](): MapIterator<[string, FileState]> {
    return this.entries();
  }

  forEach(fn: (value: FileState, key: string, map: ReadonlyMap<string, FileState>) => void): void {
    for (const [p, f] of this.entries()) fn(f, p, this);
  }
}

/**
 * The live file map's frozen copy and the paths changed in the map since it was taken. The owner
 * reports every change it applies ({@link FrozenFiles.changed}); {@link FrozenFiles.take} gives a
 * snapshot's files, sorted paths and chunk count, copying the whole map again only once the changes
 * since the last copy outgrow a sixteenth of it (at most {@link MIN_RECOPY} otherwise).
 */
export class FrozenFiles {
  #copy: FrozenCopy | undefined;
  #since = new Map<string, FileState | null>();

  /** Forget the copy (the map was replaced). */
  reset(): void {
    this.#copy = undefined;
    this.#since = new Map();
  }

  /** `paths` changed in `live`: their states now (removed when absent). */
  changed(live: ReadonlyMap<string, FileState>, paths: Iterable<string>): void {
    if (!this.#copy) return;
    for (const p of paths) this.#since.set(p, live.get(p) ?? null);
  }

  /**
   * The files a snapshot reads now (immutable), their sorted paths (made when first asked) and their chunk count.
   * @param live the map as it is now, and its keys sorted (copied when the copy is renewed).
   */
  take(
    live: ReadonlyMap<string, FileState>,
    sorted: readonly string[],
  ): { files: ReadonlyMap<string, FileState>; sorted: () => readonly string[]; chunks: number } {
    if (!this.#copy || this.#since.size > Math.max(MIN_RECOPY, this.#copy.files.size >> 4)) {
      let chunks = 0;
      for (const f of live.values()) chunks += countOf(f);
      this.#copy = { files: new Map(live), sorted: sorted.slice(), chunks };
      this.#since = new Map();
    }
    const copy = this.#copy;
    if (this.#since.size === 0) return { files: copy.files, sorted: () => copy.sorted, chunks: copy.chunks };
    const since = new Map(this.#since);
    let chunks = copy.chunks;
    for (const [p, f] of since) {
      const was = copy.files.get(p);
      chunks += (f ? countOf(f) : 0) - (was ? countOf(was) : 0);
    }
    return { files: new OverlayFiles(copy.files, since), sorted: () => mergedPaths(copy, since), chunks };
  }
}

/** Changes since the last copy below which the map is never copied again. */
const MIN_RECOPY = 256;

/** The copy's sorted paths with the paths added since inserted and the removed ones left out. */
function mergedPaths(copy: FrozenCopy, since: ReadonlyMap<string, FileState | null>): readonly string[] {
  const added = [...since].filter(([p, f]) => f && !copy.files.has(p)).map(([p]) => p);
  added.sort(byPath);
  const out: string[] = [];
  let a = 0;
  for (const p of copy.sorted) {
    while (a < added.length && byPath(added[a]!, p) < 0) out.push(added[a++]!);
    if (since.get(p) !== null) out.push(p);
  }
  while (a < added.length) out.push(added[a++]!);
  return out;
}
