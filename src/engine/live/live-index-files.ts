// The file set of the live keyword index (engine/live/live-index.ts): every memory file now, as
// indexed, with its paths sorted. After a load it is the states as loaded (engine/live/loaded-files.ts),
// made as they are read, until the index first needs a map of its own: a load makes no state per
// file, and a query reads only its hits' states. deps: engine (live-index-types, loaded-files types).
import type { FileState } from './live-index-types.js';
import type { LoadedFiles } from './loaded-files.js';

/** Every memory file of the live index (as indexed) and its paths sorted by UTF-16 code units. */
export class IndexedFiles {
  /** Every memory file now (as indexed), once the index has a map of its own (see {@link map}). */
  #fileMap = new Map<string, FileState>();
  /** Keys of #fileMap, sorted (kept in step on every change: a full sort per update costs too much at 10k files). */
  #sortedPaths: string[] = [];
  /** The file states as loaded, until the index first needs a map of its own. */
  #loadedFiles: LoadedFiles | undefined;

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
  }

  /** The states of a load, made as they are read. */
  restore(loaded: LoadedFiles): void {
    this.#loadedFiles = loaded;
    this.#fileMap = new Map();
    this.#sortedPaths = [];
  }

  /** Every indexed file with its hash (the loaded states, made as they are read, until the first change). */
  get view(): ReadonlyMap<string, FileState> {
    return this.#loadedFiles ?? this.#fileMap;
  }

  /** What the index recorded of `path` (content hash, stat key), without making its file state. */
  known(path: string): { readonly hash: string; readonly stat?: string | undefined } | undefined {
    const loaded = this.#loadedFiles;
    return loaded ? loaded.known(path) : this.#fileMap.get(path);
  }

  /** The files and sorted paths a snapshot is composed of (no sorted list while the loaded states serve). */
  get parts(): { files: ReadonlyMap<string, FileState>; sorted: string[] | undefined } {
    return { files: this.#loadedFiles ?? this.#fileMap, sorted: this.#loadedFiles ? undefined : this.#sortedPaths };
  }

  /** Copy the loaded states into a map of the index's own (the loaded ones stay as a snapshot reads them). */
  #ownFiles(): void {
    const loaded = this.#loadedFiles;
    if (!loaded) return;
    const all = loaded.all();
    this.#loadedFiles = undefined;
    this.#fileMap = new Map(all.files);
    this.#sortedPaths = all.sorted.slice();
  }
}
