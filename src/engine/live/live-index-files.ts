// The file set of the live keyword index (engine/live/live-index.ts): every memory file now, as
// indexed, with its paths sorted. After a load it is the states as loaded (engine/live/loaded-files.ts),
// made as they are read, until the index first needs a map of its own: a load makes no state per
// file, and a query reads only its hits' states. deps: engine (live-index-types, loaded-files types).
import type { FileState } from './live-index-types.js';
import type { LoadedFiles } from './loaded-files.js';
import { FrozenFiles } from './overlay-files.js';

/** Every memory file of the live index (as indexed) and its paths sorted by UTF-16 code units. */
export class IndexedFiles {
  /** Every memory file now (as indexed), once the index has a map of its own (see {@link map}). */
  #fileMap = new Map<string, FileState>();
  /** Keys of #fileMap, sorted (kept in step on every change: a full sort per update costs too much at 10k files). */
  #sortedPaths: string[] = [];
  /** The file states as loaded, until the index first needs a map of its own. */
  #loadedFiles: LoadedFiles | undefined;
  /** What snapshots read of #fileMap: a copy taken now and then, with the changes since over it. */
  readonly #frozen = new FrozenFiles();

  /** Every memory file now (as indexed); made from the loaded states on first use after a load. */
  get map(): Map<string, FileState> {
    this.#ownFiles();
    return this.#fileMap;
  }

  /** Keys of {@link map}, sorted. */
  get sorted(): string[] {
    this.#ownFiles();
    return this.#sortedPaths;
  }

  /** Replace the set by a map of the index's own and its sorted keys. */
  replace(files: Map<string, FileState>, sorted: string[]): void {
    this.#loadedFiles = undefined;
    this.#fileMap = files;
    this.#sortedPaths = sorted;
    this.#frozen.reset();
  }

  /** `paths` were just changed in {@link map} (applyChanges): the next snapshot sees them. */
  changed(paths: Iterable<string>): void {
    this.#frozen.changed(this.#fileMap, paths);
  }

  /** The states of a load, made as they are read. */
  restore(loaded: LoadedFiles): void {
    this.#loadedFiles = loaded;
    this.#fileMap = new Map();
    this.#sortedPaths = [];
    this.#frozen.reset();
  }

  /** Every indexed file with its hash (the loaded states, made as they are read, until the first change). */
  get view(): ReadonlyMap<string, FileState> {
    return this.#loadedFiles ?? this.#fileMap;
  }

  /**
   * The files whose hash is a `size:` marker (over limits.maxFileBytes), with it; undefined while the
   * loaded states serve (then the loaded manifest lists them as they are).
   */
  oversized(): Array<[string, string]> | undefined {
    if (this.#loadedFiles) return undefined;
    const out: Array<[string, string]> = [];
    for (const [p, f] of this.#fileMap) if (f.hash.startsWith('size:')) out.push([p, f.hash]);
    return out;
  }

  /** What the index recorded of `path` (content hash, stat key), without making its file state. */
  known(path: string): { readonly hash: string; readonly stat?: string | undefined } | undefined {
    const loaded = this.#loadedFiles;
    return loaded ? loaded.known(path) : this.#fileMap.get(path);
  }

  /**
   * The files a snapshot is composed of: the loaded states (immutable; no sorted list), else an
   * immutable view of the index's own map (overlay-files.ts: no copy of every file per snapshot),
   * its sorted paths and its chunk count.
   */
  get parts(): {
    files: ReadonlyMap<string, FileState>;
    sorted: (() => readonly string[]) | undefined;
    chunks?: number;
  } {
    if (this.#loadedFiles) return { files: this.#loadedFiles, sorted: undefined };
    return this.#frozen.take(this.#fileMap, this.#sortedPaths);
  }

  /** Copy the loaded states into a map of the index's own (the loaded ones stay as a snapshot reads them). */
  #ownFiles(): void {
    const loaded = this.#loadedFiles;
    if (!loaded) return;
    const all = loaded.all();
    this.#loadedFiles = undefined;
    this.#fileMap = new Map(all.files);
    this.#sortedPaths = all.sorted.slice();
    this.#frozen.reset();
  }
}
