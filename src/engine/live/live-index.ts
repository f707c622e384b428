// The live keyword index (docs/DESIGN.md §3, docs/ARCHITECTURE.md): a large base segment plus a small delta
// segment merged at query time, the base entries of changed or deleted files masked. One file save
// rebuilds only the delta (milliseconds); when the delta grows past a threshold a compaction folds
// everything into a new base in a worker thread while recall keeps answering from the last snapshot.
//
// Persistence (B05, B32, B37): artifacts have content-addressed names (`base-<sha>.lex`,
// `base-<sha>.chunks.json`, `delta-…`, `segments-<sha>.json`) and are written first; `manifest.json`
// is written last and atomically replaces the previous one, so a reader (or a process killed at any
// moment) only ever sees a complete index. A small update reuses the base artifacts without rewriting
// them. Saves happen only under the index-folder writer lock.
// The shapes are in live-index-types.ts, persistence encoding in live-index-store.ts, the writer lock
// in live-index-writer.ts, building the delta in live-index-delta.ts, composing a snapshot in
// live-index-snapshot.ts, when to fold the delta in live-index-compaction.ts, the chunk table in
// chunk-table.ts, the file set in live-index-files.ts and the paranoid check in live-index-verify.ts.
// deps: core, indexes, engine (index-manager, segment-builder, live-index-*). Storage arrives through the port.
import { SerialQueue } from '../../core/serial.js';
import { sha256 } from '../../core/hash.js';
import type { RangedFile } from '../../core/ports.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { loadIndex, type LoadIndexResult } from '../../indexes/manifest/store.js';
import { INDEX_FORMAT_VERSION, type ChunkRecord, type IndexSnapshot } from '../chunks/index-manager.js';
import { applyChanges } from './live-index-changes.js';
import { allRecords, compactionDue, inlineFoldDue } from './live-index-compaction.js';
import { buildDelta } from './live-index-delta.js';
import { chunkTableOf, emptySnapshot, makeSnapshot, searcherOf, type SnapshotParts } from './live-index-snapshot.js';
import { carryKeyMap } from './vector-key-map.js';
import { CHUNKS_SUFFIX, encodeState, partOf, restoreState, type Part } from './live-index-store.js';
import { adoptStaged, feedOf, streamBase, type StreamFeed } from './live-index-stream.js';
import type { FileState, LiveIndexOptions, UpdateReport } from './live-index-types.js';
import { verifyIndex } from './live-index-verify.js';
import type { RecordsByPath } from './lazy-records.js';
import { IndexWriter } from './live-index-writer.js';
import { IndexedFiles } from './live-index-files.js';
import type { BuiltSegment } from '../segments/segment-builder.js';

export type { FileState, LiveIndexOptions, UpdateReport } from './live-index-types.js';
export { queryProbe } from './live-index-verify.js';

type Reason = 'load' | 'update' | 'compaction' | 'rebuild';

/** Live, segmented keyword index over the chunk records of every memory file. */
export class LiveIndex {
  readonly #o: LiveIndexOptions;
  #base: Part | undefined;
  /** Base records per path (to mask them). */
  #baseByPath: RecordsByPath = new Map<string, readonly ChunkRecord[]>();
  #delta: Part | undefined;
  /** Paths changed or deleted since the base was built. */
  #touched = new Set<string>();
  /** Every memory file now (as indexed): the loaded states until this index needs a map of its own. */
  readonly #indexed = new IndexedFiles();
  #snapshot: IndexSnapshot;
  #manifest: IndexManifest | undefined;
  #loaded = false;
  /** Why the persisted index was not used (set by {@link load}). */
  #loadFailure: string | undefined;
  readonly #queue = new SerialQueue();
  #compaction: { since: Set<string>; promise: Promise<void> } | undefined;
  #background = false;
  #disposed = false;
  #lastCompactionMs: number | undefined;
  /** Bumped by every load and full rebuild: a compaction started before is stale and is dropped. */
  #generation = 0;
  readonly #writer: IndexWriter;

  constructor(options: LiveIndexOptions) {
    this.#o = options;
    this.#writer = new IndexWriter(options);
    this.#snapshot = emptySnapshot(options.fingerprint);
  }

  /** Every memory file now (as indexed); made from the loaded states on first use after a load. */
  get #files(): Map<string, FileState> {
    return this.#indexed.map;
  }

  /** Keys of {@link #files}, sorted. */
  get #sorted(): string[] {
    return this.#indexed.sorted;
  }

  /** The snapshot recall answers from; replaced (never mutated) by every change. */
  get snapshot(): IndexSnapshot {
    return this.#snapshot;
  }

  /** Every indexed file with its hash (the loaded states, made as they are read, until the first change). */
  get files(): ReadonlyMap<string, FileState> {
    return this.#indexed.view;
  }

  /** Files left out for their size, with their `size:` marker hash; undefined: the loaded manifest's (see IndexedFiles). */
  readonly oversized = (): Array<[string, string]> | undefined => this.#indexed.oversized();
  /** What the index recorded of `path` (content hash, stat key), without making its file state. */
  knownFile(path: string): { readonly hash: string; readonly stat?: string | undefined } | undefined {
    return this.#indexed.known(path);
  }

  /** SHA-256 of the manifest.json this index was loaded from or last saved as (undefined before either). */
  get manifestKey(): string | undefined {
    return this.#writer.diskKey;
  }

  /** Chunks in the delta segment. */
  get deltaSize(): number {
    return this.#delta?.records.length ?? 0;
  }

  /** Resolves when the running compaction (if any) has been folded in. */
  get compaction(): Promise<void> | undefined {
    return this.#compaction?.promise;
  }

  /** Duration of the last finished compaction or rebuild build (ms). */
  get lastCompactionMs(): number | undefined {
    return this.#lastCompactionMs;
  }

  /** True when the persisted state is behind the in-memory state (save skipped, failed or deferred). */
  get unsaved(): boolean {
    return this.#writer.unsaved || this.#writer.deferred;
  }

  /**
   * Save updates `quietMs` after the last one (at most 4 × later), on a flush or dispose, not after
   * each (a language server's edits of open buffers, B47). A kill loses only the save: the next
   * start re-indexes what the manifest lacks.
   */
  deferSaves(quietMs: number): void {
    this.#writer.deferMs = quietMs;
  }

  /** Why the last save failed (an unwritable index folder), or undefined after a good save. */
  get saveError(): string | undefined {
    return this.#writer.saveError;
  }

  /** Why the persisted index could not be used, when {@link load} found none usable. */
  get loadFailure(): string | undefined {
    return this.#loadFailure;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /** Background compactions (long-lived hosts); one-shot callers fold the delta inline only when cheap (inlineFoldDue). */
  setBackground(on: boolean): void {
    this.#background = on;
    const base = this.#base;
    if (on && base) setImmediate(() => base.lexical.prepareMasks());
  }

  /**
   * Hold the writer lock for this object's lifetime (watcher, language server). When another live
   * process holds it, this index stays in memory only (`readOnly`).
   */
  holdWriterLock(): Promise<boolean> {
    return this.#writer.holdWriterLock();
  }

  /** Run `save` under this index's writer lock (vector saves, B40); false while another process holds it. */
  underWriterLock(save: () => Promise<void>, purpose: string): Promise<boolean> {
    return this.#writer.underLock(save, purpose);
  }

  /** Run `fn` after every earlier state change has finished. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queue.run(fn);
  }

  /** Resolves when queued updates (and the persistence they trigger) are done. */
  idle(): Promise<void> {
    return this.#serial(async () => undefined);
  }

  // ---------------------------------------------------------------------------------------------
  // Load

  /**
   * Load the persisted index (verified: checksums, versions, fingerprint, shapes). A missing or
   * damaged index leaves this object empty with {@link loadFailure} set; nothing is served from it.
   * Retries when a concurrent writer replaced the manifest while it was being read.
   */
  load(): Promise<boolean> {
    return this.#serial(async () => {
      const t0 = performance.now();
      this.#generation++;
      const res = await this.#read();
      if (!res.ok) {
        this.#loadFailure = `index ${res.reason}${res.detail ? ` (${res.detail})` : ''}`;
        this.#loaded = true;
        return false;
      }
      try {
        this.#restore(res.manifest, res.artifacts, res.files);
        this.#loaded = true;
        this.#loadFailure = undefined;
        this.#publish('load', 'loaded', performance.now() - t0);
        // Artifacts verified in full under new stat keys (a copied folder): record the keys, or every
        // later load hashes them in full again.
        if (res.restatted?.length) await this.#persist();
        return true;
      } catch (e) {
        for (const f of Object.values(res.files)) f.close();
        this.#reset();
        this.#loadFailure = `index unreadable (${(e as Error).message})`;
        this.#loaded = true;
        return false;
      }
    });
  }

  /** Read the persisted index, recording the manifest's key; again when a writer replaced it meanwhile. */
  async #read(): Promise<LoadIndexResult> {
    for (let attempt = 0; ; attempt++) {
      const rawManifest = await this.#o.storage.read('manifest.json').catch(() => undefined);
      this.#writer.diskKey = rawManifest ? sha256(rawManifest) : undefined;
      const res = await loadIndex(this.#o.storage, {
        formatVersion: INDEX_FORMAT_VERSION,
        fingerprint: this.#o.fingerprint,
        // Chunk records are read at offsets: only the records a query or a change reaches are read;
        // keyword segments stay in their files too: a query reads its terms' postings.
        ranged: (name) => name.endsWith(CHUNKS_SUFFIX) || name.endsWith('.lex'),
      });
      if (res.ok || !(res.reason === 'partial' || res.reason === 'corrupt') || attempt >= 3) return res;
      await new Promise((r) => setTimeout(r, 30 * (attempt + 1)));
    }
  }

  #reset(): void {
    this.#base = undefined;
    this.#delta = undefined;
    this.#baseByPath = new Map();
    this.#touched = new Set();
    this.#indexed.replace(new Map(), []);
    this.#manifest = undefined;
  }

  #restore(
    manifest: IndexManifest,
    artifacts: Readonly<Record<string, Uint8Array>>,
    files: Readonly<Record<string, RangedFile>>,
  ): void {
    const state = restoreState(manifest, artifacts, files);
    this.#base = state.base;
    this.#delta = state.delta;
    this.#baseByPath = state.baseByPath;
    this.#touched = state.touched;
    this.#indexed.restore(state.files);
    this.#manifest = manifest;
  }

  // ---------------------------------------------------------------------------------------------
  // Updates

  /**
   * Apply file changes: `null` = the file is gone. Files whose hash equals the indexed one are
   * skipped (B18: our own writes and touch-only saves cause no work). Builds the new delta, swaps
   * the snapshot, then persists. Serialised with every other change.
   */
  update(changes: ReadonlyMap<string, FileState | null>): Promise<UpdateReport> {
    return this.#serial(async () => {
      const t0 = performance.now();
      const { upserted, removed, changed, restatted } = applyChanges(this.#files, this.#sorted, changes);
      this.#indexed.changed(changed);
      for (const path of changed) {
        this.#touched.add(path);
        this.#compaction?.since.add(path);
      }
      const report = (persisted: boolean) => ({
        upserted,
        removed,
        chunks: this.#snapshot.chunks.size,
        delta: this.deltaSize,
        ms: performance.now() - t0,
        persisted,
      });
      if (upserted.length + removed.length === 0)
        // Only stat keys changed: save the manifest (every artifact reused), so the next walk skips those reads.
        return report(restatted ? await this.#persist() : !this.unsaved);
      await this.#rebuildDelta('update', t0, new Set([...upserted, ...removed]));
      const t1 = performance.now();
      let persisted =
        this.#writer.deferMs !== undefined ? this.#writer.later(() => void this.flush()) : await this.#persist();
      this.#o.logger.debug(
        `index update: ${upserted.length + removed.length} files, delta ${this.deltaSize} chunks, visible after ${(t1 - t0).toFixed(1)} ms, saved after ${(performance.now() - t0).toFixed(1)} ms`,
      );
      const at = this.#o.compactAt ?? 2000;
      if (compactionDue(this.deltaSize, at, upserted, this.#files) && !this.#compaction) {
        if (this.#background) this.#startCompaction();
        else if (inlineFoldDue(this.deltaSize, this.#snapshot.chunks.size, at)) {
          await this.#fold('rebuild', true);
          persisted = await this.#persist();
        } else this.#o.logger.debug(`delta of ${this.deltaSize} chunks kept: the base is left for a host to fold`);
      }
      return report(persisted);
    });
  }

  /** Bring the delta up to date (live-index-delta.ts), publish; with `changed`, only those files are tokenised. */
  async #rebuildDelta(
    reason: 'update' | 'compaction' | 'rebuild',
    t0: number,
    changed?: ReadonlySet<string>,
  ): Promise<void> {
    const tb = performance.now();
    this.#delta = await buildDelta(
      {
        old: this.#delta,
        files: this.#files,
        touched: this.#touched,
        builder: this.#o.builder,
        offThreadAt: this.#o.offThreadAt ?? 400,
      },
      changed,
    );
    const tp = performance.now();
    this.#publish(reason, 'built', performance.now() - t0, changed);
    this.#o.logger.debug(
      `delta of ${this.deltaSize} chunks built in ${(tp - tb).toFixed(1)} ms, snapshot in ${(performance.now() - tp).toFixed(1)} ms`,
    );
  }

  /** The parts a snapshot is composed of, as they are now. */
  get #parts(): SnapshotParts {
    return {
      base: this.#base,
      baseByPath: this.#baseByPath,
      delta: this.#delta,
      touched: this.#touched,
      // The loaded states while this index has no map of its own (a snapshot of a load reads them).
      ...this.#indexed.parts,
    };
  }

  /** `changed`: the only files that differ from the last snapshot (its embedding-key map is carried over). */
  #publish(reason: Reason, source: 'loaded' | 'built', ms: number, changed?: ReadonlySet<string>): void {
    const parts = this.#parts;
    const lexical = searcherOf(parts);
    const chunks = chunkTableOf(parts);
    // Long-lived hosts: prepare the base for masking now, not on the next edit.
    const base = this.#base;
    if (this.#background && base && reason !== 'update') setImmediate(() => base.lexical.prepareMasks());
    const prev = this.#snapshot;
    this.#snapshot = makeSnapshot(lexical, chunks, this.#manifest, this.#o.fingerprint, { source, reason, ms });
    carryKeyMap(prev, this.#snapshot, changed);
    this.#o.onSnapshot?.(this.#snapshot, reason);
  }

  // ---------------------------------------------------------------------------------------------
  // Compaction and full rebuild

  /** Replace the whole state by `files` (a full read's states, streamed as live-index-stream.ts feedOf gives them). */
  rebuild(files: ReadonlyMap<string, FileState>): Promise<UpdateReport> {
    // In memory: this is also the fallback when a build on disk failed (a full or unwritable folder).
    return this.rebuildStreamed(feedOf(files), false);
  }

  /** Replace the whole state by one base built from `feed`'s batches as they come (live-index-stream.ts; issue 46). */
  rebuildStreamed(feed: StreamFeed, onDisk = true): Promise<UpdateReport> {
    return this.#serial(async () => {
      const t0 = performance.now();
      if (!this.#loaded) await this.#writer.knowDisk();
      const s = await streamBase(this.#o.builder, feed, onDisk ? this.#o.storage : undefined, this.#o.runDocs);
      this.#generation++;
      this.#indexed.replace(s.files, s.sorted);
      [this.#base, this.#baseByPath, this.#touched, this.#delta] = [s.part, s.baseByPath, new Set(), undefined];
      this.#lastCompactionMs = performance.now() - t0;
      this.#publish('rebuild', 'built', performance.now() - t0);
      const persisted = await this.#persist();
      const chunks = this.#snapshot.chunks.size;
      return { upserted: s.sorted.slice(), removed: [], chunks, delta: 0, ms: performance.now() - t0, persisted };
    });
  }

  /** Fold everything into a new base now (inside the queue). */
  async #fold(reason: 'rebuild' | 'compaction', inline: boolean): Promise<void> {
    const t0 = performance.now();
    const { records, grouped } = allRecords(this.#sorted, this.#files);
    const built = await this.#o.builder.build(records, {
      offThread: !inline || records.length > (this.#o.offThreadAt ?? 400),
      chunks: true,
    });
    this.#lastCompactionMs = performance.now() - t0;
    this.#base = partOf('base', built, records);
    this.#baseByPath = grouped;
    this.#touched = new Set();
    this.#delta = undefined;
    this.#publish(reason, 'built', performance.now() - t0);
  }

  /** Start a background compaction: build a new base from the records as of now; updates continue meanwhile. */
  #startCompaction(): void {
    const since = new Set<string>();
    const { records, grouped } = allRecords(this.#sorted, this.#files);
    const t0 = performance.now();
    const generation = this.#generation;
    const promise = (async () => {
      let built: BuiltSegment;
      try {
        built = await this.#o.builder.build(records, { offThread: true, chunks: true });
      } catch (e) {
        this.#o.logger.warn(`compaction failed: ${(e as Error).message}`);
        this.#compaction = undefined;
        return;
      }
      await this.#serial(async () => {
        this.#compaction = undefined;
        if (this.#disposed || generation !== this.#generation) return;
        this.#lastCompactionMs = performance.now() - t0;
        this.#base = partOf('base', built, records);
        this.#baseByPath = grouped;
        // Paths changed while the worker built the base stay in the delta, masked in the new base.
        this.#touched = since;
        await this.#rebuildDelta('compaction', performance.now());
        await this.#persist();
      });
    })();
    this.#compaction = { since, promise };
  }

  /** Compact now if anything is in the delta (waits for it). */
  async compact(): Promise<void> {
    await this.#serial(async () => {
      if (this.#compaction || (this.#touched.size === 0 && !this.#delta)) return;
      this.#startCompaction();
    });
    await this.#compaction?.promise;
  }

  // ---------------------------------------------------------------------------------------------
  // Persistence

  /** Save the current state (inside the queue). @returns false when not saved. */
  #persist(): Promise<boolean> {
    return this.#writer.persist(() => this.#save(), this.#disposed);
  }

  async #save(): Promise<void> {
    for (const part of [this.#base, this.#delta]) await adoptStaged(this.#o.storage, part);
    const { artifacts, checksums, reuse, docs, chunkCount } = encodeState({
      base: this.#base,
      delta: this.#delta,
      touched: this.#touched,
      files: this.#files,
      sorted: this.#sorted,
    });
    this.#manifest = await this.#writer.write(
      { formatVersion: INDEX_FORMAT_VERSION, fingerprint: this.#o.fingerprint, docs, chunkCount, artifacts },
      { reuse, checksums },
      this.#manifest,
    );
    if (this.#base) this.#base.unsaved = undefined;
    if (this.#delta) this.#delta.unsaved = undefined;
  }

  /** Save now if an earlier save was skipped (e.g. the lock was busy) or deferred. */
  flush(): Promise<boolean> {
    return this.#serial(async () => (this.unsaved ? this.#persist() : true));
  }

  /** Save now if a save is deferred ({@link deferSaves}). */
  saveDeferred(): Promise<boolean> {
    return this.#serial(async () => (this.#writer.deferred ? this.#persist() : true));
  }

  // ---------------------------------------------------------------------------------------------
  // Paranoid check

  /**
   * Compare this index with one built from scratch over `files` (the truth just read from disk):
   * the file set and hashes, every chunk record, and keyword answers on a query set derived from
   * the vocabulary. @returns human-readable differences (empty = identical).
   */
  verify(
    files: ReadonlyMap<string, FileState>,
    options: { queries?: readonly string[]; maxQueries?: number } = {},
  ): { differences: string[]; queries: number } {
    return verifyIndex(this.#files, this.#snapshot, files, options);
  }

  /** Stop: no more saves; a running compaction is abandoned (the persisted state stays consistent). */
  async dispose(): Promise<void> {
    await this.idle();
    await this.saveDeferred();
    this.#disposed = true;
    await this.#writer.release();
  }
}
