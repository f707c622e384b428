// The embedding-key map of a live-index snapshot (embedding key → ids of the chunks that carry it, in
// table order: path order, then chunk order within a file). The first use walks every chunk; after an
// update the next snapshot's map is the previous one with only the changed files' keys redone (their
// old ids dropped, their new ids added), laid over the previous map and folded into a plain map now
// and then, so a write with an embedding model costs the chunks it changed, not every chunk (issue 44).
// deps: engine (chunk-table, index-manager types).
import type { IndexSnapshot } from '../chunks/index-manager.js';
import { byPath, type ChunkTable } from './chunk-table.js';

/** Embedding key → ids of the chunks that carry it (never an empty list). */
export type KeyMap = ReadonlyMap<string, readonly string[]>;

/** (embedding key, chunk id) pairs of one file of a chunk table. */
type PathKeys = (path: string) => Iterable<readonly [vkey: string, id: string]>;

/** Keys laid over a base map before they are folded into a plain map: at least this many, or an eighth of the base. */
const FOLD_MIN = 1024;
const FOLD_SHARE = 8;

/** The path of a chunk id (`path#n`). */
function pathOf(id: string): string {
  const hash = id.lastIndexOf('#');
  return hash < 0 ? id : id.slice(0, hash);
}

/** One walk over `pairs`: the map a full build gives. */
export function buildKeyMap(pairs: Iterable<readonly [vkey: string, id: string]>): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const [vkey, id] of pairs) {
    const list = m.get(vkey);
    if (list) list.push(id);
    else m.set(vkey, [id]);
  }
  return m;
}

/**
 * `base` with the keys of `over` replaced (an empty list: the key is gone). Immutable; `get` and
 * `has` cost one or two lookups. Iteration gives every key once, not in table order.
 */
class OverlayKeyMap implements KeyMap {
  readonly size: number;

  constructor(
    readonly base: KeyMap,
    readonly over: ReadonlyMap<string, readonly string[]>,
  ) {
    let size = base.size;
    for (const [k, list] of over) {
      const had = base.has(k);
      if (had && list.length === 0) size--;
      else if (!had && list.length > 0) size++;
    }
    this.size = size;
  }

  get(key: string): readonly string[] | undefined {
    const o = this.over.get(key);
    if (o !== undefined) return o.length > 0 ? o : undefined;
    return this.base.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  *entries(): MapIterator<[string, readonly string[]]> {
    for (const [k, list] of this.over) if (list.length > 0) yield [k, list];
    for (const [k, list] of this.base) if (!this.over.has(k)) yield [k, list];
  }

  *keys(): MapIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<readonly string[]> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[string, readonly string[]]> {
    return this.entries();
  }

  forEach(fn: (value: readonly string[], key: string, map: KeyMap) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/**
 * The map after the files at `changed` changed: `prev` with, for every key the old or new chunks of
 * those files carry, the old ids of those files dropped and the new ones added (in table order).
 * `oldKeys` / `newKeys` give a file's (key, id) pairs before / after (nothing for a file that was
 * absent / is gone). @returns the map and `touched`, the number of keys whose list was redone.
 */
export function updateKeyMap(
  prev: KeyMap,
  changed: Iterable<string>,
  oldKeys: PathKeys,
  newKeys: PathKeys,
): { map: KeyMap; touched: number } {
  const drop = new Set(changed);
  const redone = new Map<string, string[]>();
  const listOf = (k: string): string[] => {
    let list = redone.get(k);
    if (!list) {
      list = (prev.get(k) ?? []).filter((id) => !drop.has(pathOf(id)));
      redone.set(k, list);
    }
    return list;
  };
  for (const p of drop) for (const [k] of oldKeys(p)) listOf(k);
  const added = new Set<string>();
  for (const p of drop)
    for (const [k, id] of newKeys(p)) {
      listOf(k).push(id);
      added.add(k);
    }
  // Stable sort by path: the kept ids are in table order already, a file's new ids in chunk order.
  for (const k of added) redone.get(k)!.sort((a, b) => byPath(pathOf(a), pathOf(b)));
  const base = prev instanceof OverlayKeyMap ? prev.base : prev;
  const over = prev instanceof OverlayKeyMap ? new Map([...prev.over, ...redone]) : redone;
  const overlay = new OverlayKeyMap(base, over);
  const map = over.size > Math.max(FOLD_MIN, base.size / FOLD_SHARE) ? new Map(overlay) : overlay;
  return { map, touched: redone.size };
}

/** The maps built or derived so far, by snapshot (a snapshot whose map nobody asked for has none). */
const built = new WeakMap<IndexSnapshot, KeyMap>();

/** `s` with its embedding-key map: one walk over its chunks on first use (unless {@link carryKeyMap} gave it one). */
export function withVectorKeys(s: Omit<IndexSnapshot, 'byVectorKey'>): IndexSnapshot {
  const snap: IndexSnapshot = {
    ...s,
    byVectorKey() {
      let m = built.get(snap);
      if (!m) {
        const chunks = s.chunks;
        m = buildKeyMap(chunks.vectorKeys ? chunks.vectorKeys() : keysOfValues(chunks.values()));
        built.set(snap, m);
      }
      return m;
    },
  };
  return snap;
}

function* keysOfValues(records: Iterable<{ vkey?: string | undefined; id: string }>) {
  for (const r of records) if (r.vkey) yield [r.vkey, r.id] as const;
}

/**
 * Give `next` (the snapshot that follows `prev` when only the files at `changed` differ) its
 * embedding-key map derived from `prev`'s, when `prev`'s was built; else `next` builds its own on
 * first use. @returns the keys whose list was redone, or undefined when nothing was carried.
 */
export function carryKeyMap(
  prev: IndexSnapshot,
  next: IndexSnapshot,
  changed: ReadonlySet<string> | undefined,
): number | undefined {
  const before = built.get(prev);
  const old = prev.chunks as Partial<ChunkTable>;
  const now = next.chunks as Partial<ChunkTable>;
  if (!before || !changed || typeof old.keysOfPath !== 'function' || typeof now.keysOfPath !== 'function')
    return undefined;
  const { map, touched } = updateKeyMap(
    before,
    changed,
    (p) => old.keysOfPath!(p),
    (p) => now.keysOfPath!(p),
  );
  built.set(next, map);
  return touched;
}
