// Vector freshness, decided in one place: which chunks of a snapshot still lack an embedding, how
// many are embedded now (every one for `gitmem index` and the background catch-up of a long-lived
// process, at most the inline limit for a one-shot recall), and what recall says while some are missing.
// A snapshot found fully embedded is not walked again, whoever checked it (a watcher batch, a
// recall, `gitmem index`). deps: engine (semantic, index-manager).
import { vectorKeysOf, type IndexSnapshot } from '../chunks/index-manager.js';
import type { FileState } from '../live/live-index.js';
import type { SemanticIndex, VectorSyncReport } from './semantic.js';

export class VectorFreshness {
  /** The snapshot last checked against the vector table, and what it still lacked then. */
  #checked: { snap: IndexSnapshot; missing: number; total: number } | undefined;

  constructor(readonly semantic: SemanticIndex) {}

  /**
   * Embed the chunks of `snap` whose embedding key has no vector yet (at most `limit`, and no new
   * group after `budgetMs`; all without them) and drop vectors nothing uses (SemanticIndex.sync). A snapshot already checked with
   * nothing missing answers at once: `{ embedded: 0, missing: 0, total, ms: 0 }`.
   */
  async ensure(
    snap: IndexSnapshot,
    options: {
      limit?: number;
      budgetMs?: number;
      persist?: boolean;
      checkpoint?: boolean;
      onProgress?: (done: number, total: number) => void;
      signal?: AbortSignal;
    } = {},
  ): Promise<VectorSyncReport> {
    const c = this.#checked;
    if (c?.snap === snap && c.missing === 0)
      return { embedded: 0, missing: 0, total: c.total, ms: 0, interrupted: false };
    // Keys from the chunk table's columns: a loaded index's records stay encoded, except those to embed.
    const chunks = snap.chunks;
    // The snapshot's embedding-key map, carried over an update (engine/live/vector-key-map.ts): no walk of every chunk.
    const keyMap = snap.byVectorKey ? { keyMap: () => snap.byVectorKey!() } : {};
    const rep = await this.semantic.sync(
      { vectorKeys: () => vectorKeysOf(chunks), get: (id) => chunks.get(id), ...keyMap },
      options,
    );
    this.#checked = { snap, missing: rep.missing, total: rep.total };
    return rep;
  }

  /**
   * Distinct embedding keys of `snap` and how many of them have no vector now: one walk of its
   * chunk table (what recall reports while the background catch-up runs, engine/vectors/vector-catchup.ts).
   */
  behind(snap: IndexSnapshot): { missing: number; total: number } {
    const c = this.#checked;
    if (c?.snap === snap && c.missing === 0) return { missing: 0, total: c.total };
    const keys = new Set<string>();
    for (const [k] of vectorKeysOf(snap.chunks)) keys.add(k);
    return { missing: keys.size - this.semantic.countOf(keys), total: keys.size };
  }

  /** The note of a recall answered while the background catch-up embeds (engine/vectors/vector-catchup.ts). */
  catchingUp(b: { missing: number; total: number }): string {
    return `${b.missing} of ${b.total} chunks are still being embedded in the background; they are found by keyword only until then (vector results are partial)`;
  }

  /** Why vector results over `snap` are partial (chunks not embedded yet), or undefined when none are missing. */
  partial(snap: IndexSnapshot): string | undefined {
    const c = this.#checked;
    if (c?.snap !== snap || c.missing === 0) return undefined;
    return `${c.missing} of ${c.total} chunks are not embedded yet; run \`gitmem index\` (vector results are partial)`;
  }

  /** Paranoid check of the vector keys against `truth` (a rebuild from the files): the differences, if any. */
  verify(truth: ReadonlyMap<string, FileState>): string[] {
    const semantic = this.semantic;
    const differences: string[] = [];
    if (semantic && !semantic.unavailable && semantic.size > 0) {
      const want = new Set<string>();
      for (const f of truth.values()) for (const r of f.records) if (r.vkey) want.add(r.vkey);
      const have = new Set(semantic.keys());
      const extra = [...have].filter((k) => !want.has(k)).length;
      const missing = [...want].filter((k) => !have.has(k)).length;
      if (extra) differences.push(`${extra} vectors of deleted or changed chunks are still held`);
      if (missing) differences.push(`${missing} chunks have no vector`);
    }
    return differences;
  }
}
