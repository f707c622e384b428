// The one owner of "what changed" between two recorded file sets: a manifest and a stat walk, the
// live index and a batch of file states, a manifest and the hashes `doctor` reads. Pure: no I/O.

/** What is recorded of one file: its content hash (or a `size:`/`binary:` marker) and its stat key. */
export interface FileKey {
  readonly hash: string;
  /** Stat key when the hash was taken (size, mtime, ctime, inode: FileStat.key); absent = re-read next time. */
  readonly stat?: string | undefined;
}

/** A file set as the diff reads it: a Map of keys, or any object with `keys` and `get`. */
export interface FileSet {
  keys(): Iterable<string>;
  get(path: string): FileKey | undefined;
}

/**
 * How one path changed: `added` (new), `changed` (another hash), `removed` (gone), `restat` (same
 * hash, another stat key: touched, or no longer racy) or `same`.
 */
export type FileChange = 'added' | 'changed' | 'removed' | 'restat' | 'same';

/**
 * The change of one path.
 * @param before the recorded key, undefined when the path was not recorded.
 * @param after the key now; null or undefined when the file is gone.
 */
export function changeOf(before: FileKey | undefined, after: FileKey | null | undefined): FileChange {
  if (after === null || after === undefined) return before ? 'removed' : 'same';
  if (!before) return 'added';
  if (before.hash !== after.hash) return 'changed';
  return before.stat !== after.stat ? 'restat' : 'same';
}

/** Paths by kind of change, each list in the order `after` (then `before`, for removals) lists them. */
export interface FileDiff {
  readonly added: string[];
  readonly changed: string[];
  readonly removed: string[];
  readonly restat: string[];
}

/** True when the diff re-indexes nothing: no path added, changed or removed (restat ones may remain). */
export function contentUnchanged(d: FileDiff): boolean {
  return d.added.length + d.changed.length + d.removed.length === 0;
}

/**
 * Every path's change from `before` to `after`.
 * @param after the file set now; every path of `before` missing from it counts as removed.
 * @param onChange called for each path that is not `same`, in the order of the lists (the paths
 *   of `after` in its order, then the removed ones).
 */
export function diffFiles(
  before: FileSet,
  after: FileSet,
  onChange?: (path: string, change: Exclude<FileChange, 'same'>) => void,
): FileDiff {
  const d: FileDiff = { added: [], changed: [], removed: [], restat: [] };
  for (const p of after.keys()) {
    const c = changeOf(before.get(p), after.get(p));
    if (c === 'same') continue;
    d[c].push(p);
    onChange?.(p, c);
  }
  for (const p of before.keys()) {
    if (after.get(p) !== undefined) continue;
    d.removed.push(p);
    onChange?.(p, 'removed');
  }
  return d;
}

/** A file set over plain records (path → hash, path → stat key), as a workspace read returns them. */
export function fileSetOf(hashes: Readonly<Record<string, string>>, stats?: Readonly<Record<string, string>>): FileSet {
  return {
    keys: () => Object.keys(hashes),
    get: (p) => (Object.hasOwn(hashes, p) ? { hash: hashes[p]!, stat: stats?.[p] } : undefined),
  };
}
