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
// deps: core, indexes, engine (index-manager, segment-builder). Storage arrives through the port.
import { MemoryError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { IndexLock, IndexStorage, Logger } from '../core/ports.js';
import { LexicalIndex, SegmentedLexical, type LexicalHit, type LexicalSearcher } from '../indexes/lexical.js';
import type { ArtifactInfo, IndexManifest } from '../indexes/manifest.js';
import { loadIndex, saveIndex } from '../indexes/store.js';
import { tokenize } from '../indexes/tokenize.js';
import { INDEX_FORMAT_VERSION, lexicalDoc, withKeyMap, type ChunkRecord, type IndexSnapshot } from './index-manager.js';
import type { BuiltSegment, SegmentBuilder } from './segment-builder.js';

/** The current state of one memory file as indexed. */
export interface FileState {
  /** contentHash of the text, or a `size:`/`binary:` marker for skipped files. */
  readonly hash: string;
  /** Chunk records (empty for skipped files and files without chunks). */
  readonly records: readonly ChunkRecord[];
  /** Stat key when the hash was taken (see MemoryFs.stat); absent = re-read on the next walk. */
  readonly stat?: string;
}

/** One indexed part: a keyword segment and the chunk records it was built from. */
interface Part {
  readonly lexical: LexicalIndex;
  readonly records: readonly ChunkRecord[];
  readonly lexName: string;
  readonly chunksName: string;
  readonly lexInfo: ArtifactInfo;
  readonly chunksInfo: ArtifactInfo;
  /** Bytes not yet written (a part built since the last save). */
  unsaved?: { lex: Uint8Array; chunks: Uint8Array } | undefined;
}

/** `segments-<sha>.json`: which artifacts form the index, and which base paths are superseded. */
interface SegmentsFile {
  readonly version: 1;
  readonly base: { readonly lex: string; readonly chunks: string } | null;
  readonly delta: { readonly lex: string; readonly chunks: string } | null;
  /** Paths changed or deleted since the base was built: their base entries are masked. */
  readonly touched: readonly string[];
}

/** What one update did. */
export interface UpdateReport {
  readonly upserted: readonly string[];
  readonly removed: readonly string[];
  /** Live chunks after the update. */
  readonly chunks: number;
  /** Chunks in the delta segment (compaction starts past {@link LiveIndexOptions.compactAt}). */
  readonly delta: number;
  readonly ms: number;
  /** False when the index could not be saved (lock held elsewhere, or a write failed). */
  readonly persisted: boolean;
}

export interface LiveIndexOptions {
  readonly storage: IndexStorage;
  readonly fingerprint: string;
  readonly logger: Logger;
  readonly builder: SegmentBuilder;
  /** Compact when the delta holds more chunks than this. Default 2000. */
  readonly compactAt?: number;
  /** Deltas with more chunks than this are built in the worker. Default 400. */
  readonly offThreadAt?: number;
  /** How long a one-shot save waits for another writer's lock before giving up (ms). Default 250. */
  readonly lockWaitMs?: number;
  /** Called after every state change (update, compaction, rebuild, load). */
  readonly onSnapshot?: (snap: IndexSnapshot, reason: 'load' | 'update' | 'compaction' | 'rebuild') => void;
}

const SEGMENTS_PREFIX = 'segments-';
const utf8 = new TextEncoder();
const decode = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b);

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Live, segmented keyword index over the chunk records of every memory file. */
export class LiveIndex {
  readonly #o: LiveIndexOptions;
  #base: Part | undefined;
  /** Base records per path (to mask them). */
  #baseByPath = new Map<string, readonly ChunkRecord[]>();
  #delta: Part | undefined;
  /** Paths changed or deleted since the base was built. */
  #touched = new Set<string>();
  /** Every memory file now (as indexed). */
  #files = new Map<string, FileState>();
  /** Keys of #files, sorted (kept in step on every change: a full sort per update costs too much at 10k files). */
  #sorted: string[] = [];
  #snapshot: IndexSnapshot;
  #manifest: IndexManifest | undefined;
  #loaded = false;
  /** Why the persisted index was not used (set by {@link load}). */
  #loadFailure: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #compaction: { since: Set<string>; promise: Promise<void> } | undefined;
  #writerLock: IndexLock | undefined;
  /** True while another live process holds the writer lock: keep the index in memory only. */
  #readOnly = false;
  #background = false;
  #disposed = false;
  #unsaved = false;
  #lastCompactionMs: number | undefined;
  /** Bumped by every load and full rebuild: a compaction started before is stale and is dropped. */
  #generation = 0;
  /** sha256 of manifest.json as this object last saw or wrote it (a different one = another writer). */
  #diskKey: string | undefined;

  constructor(options: LiveIndexOptions) {
    this.#o = options;
    this.#snapshot = this.#makeSnapshot(new SegmentedLexical([]), new ChunkTable(new Map(), []), 'built', 'empty', 0);
  }

  /** The snapshot recall answers from; replaced (never mutated) by every change. */
  get snapshot(): IndexSnapshot {
    return this.#snapshot;
  }

  /** Every indexed file with its hash. */
  get files(): ReadonlyMap<string, FileState> {
    return this.#files;
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

  /** True when the persisted state is behind the in-memory state (save skipped or failed). */
  get unsaved(): boolean {
    return this.#unsaved;
  }

  /** Why the persisted index could not be used, when {@link load} found none usable. */
  get loadFailure(): string | undefined {
    return this.#loadFailure;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * Allow compactions in the background (long-lived hosts). One-shot callers leave it off: their
   * delta is folded only when it passes the threshold, and then synchronously.
   */
  setBackground(on: boolean): void {
    this.#background = on;
    const base = this.#base;
    if (on && base) setImmediate(() => base.lexical.prepareMasks());
  }

  /**
   * Hold the writer lock for this object's lifetime (watcher, language server). When another live
   * process holds it, this index stays in memory only (`readOnly`).
   */
  async holdWriterLock(): Promise<boolean> {
    if (this.#writerLock) return true;
    const lock = await this.#o.storage.lock?.({ waitMs: 0, purpose: 'watch' });
    if (this.#o.storage.lock && !lock) {
      this.#readOnly = true;
      this.#o.logger.warn(
        `another gitmem process writes the index in ${this.#o.storage.location}; this one keeps its index in memory`,
      );
      return false;
    }
    this.#writerLock = lock;
    this.#readOnly = false;
    return true;
  }

  /** Run `fn` after every earlier state change has finished. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.#queue.then(fn);
    this.#queue = p.catch(() => undefined);
    return p;
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
      for (let attempt = 0; ; attempt++) {
        const rawManifest = await this.#o.storage.read('manifest.json').catch(() => undefined);
        this.#diskKey = rawManifest ? sha256(rawManifest) : undefined;
        const res = await loadIndex(this.#o.storage, {
          formatVersion: INDEX_FORMAT_VERSION,
          fingerprint: this.#o.fingerprint,
        });
        if (!res.ok) {
          if ((res.reason === 'partial' || res.reason === 'corrupt') && attempt < 3) {
            await new Promise((r) => setTimeout(r, 30 * (attempt + 1)));
            continue;
          }
          this.#loadFailure = `index ${res.reason}${res.detail ? ` (${res.detail})` : ''}`;
          this.#loaded = true;
          return false;
        }
        try {
          this.#restore(res.manifest, res.artifacts);
          this.#loaded = true;
          this.#loadFailure = undefined;
          this.#publish('load', 'loaded', performance.now() - t0);
          return true;
        } catch (e) {
          this.#reset();
          this.#loadFailure = `index unreadable (${(e as Error).message})`;
          this.#loaded = true;
          return false;
        }
      }
    });
  }

  #reset(): void {
    this.#base = undefined;
    this.#delta = undefined;
    this.#baseByPath = new Map();
    this.#touched = new Set();
    this.#files = new Map();
    this.#sorted = [];
    this.#manifest = undefined;
  }

  #restore(manifest: IndexManifest, artifacts: Readonly<Record<string, Uint8Array>>): void {
    const segName = Object.keys(manifest.artifacts).find((n) => n.startsWith(SEGMENTS_PREFIX));
    if (!segName) throw new MemoryError('index.corrupt', 'no segments file');
    const seg = JSON.parse(decode(artifacts[segName]!)) as SegmentsFile;
    if (seg.version !== 1 || !Array.isArray(seg.touched)) throw new MemoryError('index.corrupt', 'bad segments file');
    const part = (names: { lex: string; chunks: string } | null): Part | undefined => {
      if (!names) return undefined;
      const lexBytes = artifacts[names.lex];
      const chunkBytes = artifacts[names.chunks];
      if (!lexBytes || !chunkBytes) throw new MemoryError('index.corrupt', 'segment artifact missing');
      const lexical = LexicalIndex.fromBinary(lexBytes);
      const records = JSON.parse(decode(chunkBytes)) as ChunkRecord[];
      if (!Array.isArray(records) || records.length !== lexical.size)
        throw new MemoryError('index.corrupt', 'chunks do not match the segment');
      const refs = lexical.refs;
      for (let i = 0; i < records.length; i++) {
        if (records[i]?.id !== refs[i]) throw new MemoryError('index.corrupt', 'chunks do not match the segment');
      }
      return {
        lexical,
        records,
        lexName: names.lex,
        chunksName: names.chunks,
        lexInfo: manifest.artifacts[names.lex]!,
        chunksInfo: manifest.artifacts[names.chunks]!,
      };
    };
    const base = part(seg.base);
    const delta = part(seg.delta);
    const touched = new Set(seg.touched);
    const baseByPath = groupByPath(base?.records ?? []);
    const deltaByPath = groupByPath(delta?.records ?? []);
    const files = new Map<string, FileState>();
    for (const [path, doc] of Object.entries(manifest.docs)) {
      const records = touched.has(path) ? (deltaByPath.get(path) ?? []) : (baseByPath.get(path) ?? []);
      if (records.length !== doc.chunkCount)
        throw new MemoryError('index.corrupt', `chunk count of ${path} does not match`);
      files.set(path, { hash: doc.contentHash, records, ...(doc.stat ? { stat: doc.stat } : {}) });
    }
    for (const p of deltaByPath.keys())
      if (!touched.has(p) || !files.has(p)) throw new MemoryError('index.corrupt', `delta holds ${p} unexpectedly`);
    for (const p of baseByPath.keys())
      if (!touched.has(p) && !files.has(p)) throw new MemoryError('index.corrupt', `base holds unknown ${p}`);
    this.#base = base;
    this.#delta = delta;
    this.#baseByPath = baseByPath;
    this.#touched = touched;
    this.#files = files;
    this.#sorted = [...files.keys()].sort(byPath);
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
      const upserted: string[] = [];
      const removed: string[] = [];
      let restatted = false;
      for (const [path, next] of changes) {
        const prev = this.#files.get(path);
        if (next === null) {
          if (!prev) continue;
          this.#files.delete(path);
          this.#sorted.splice(lowerBoundPath(this.#sorted, path), 1);
          removed.push(path);
        } else {
          if (prev && prev.hash === next.hash) {
            // Same content, new stat key (touched, or no longer racy): record the key, keep the records.
            if (prev.stat !== next.stat) {
              this.#files.set(
                path,
                next.stat
                  ? { hash: prev.hash, records: prev.records, stat: next.stat }
                  : { hash: prev.hash, records: prev.records },
              );
              restatted = true;
            }
            continue;
          }
          if (!prev) this.#sorted.splice(lowerBoundPath(this.#sorted, path), 0, path);
          this.#files.set(path, next);
          upserted.push(path);
        }
        this.#touched.add(path);
        this.#compaction?.since.add(path);
      }
      if (upserted.length + removed.length === 0) {
        // Only stat keys changed: save the manifest (every artifact reused), so the next walk skips those reads.
        const persisted = restatted ? await this.#persist() : !this.#unsaved;
        return {
          upserted,
          removed,
          chunks: this.#snapshot.chunks.size,
          delta: this.deltaSize,
          ms: performance.now() - t0,
          persisted,
        };
      }
      await this.#rebuildDelta('update', t0, new Set([...upserted, ...removed]));
      const t1 = performance.now();
      let persisted = await this.#persist();
      this.#o.logger.debug(
        `index update: ${upserted.length + removed.length} files, delta ${this.deltaSize} chunks, visible after ${(t1 - t0).toFixed(1)} ms, saved after ${(performance.now() - t0).toFixed(1)} ms`,
      );
      if (this.deltaSize > (this.#o.compactAt ?? 2000) && !this.#compaction) {
        if (this.#background) this.#startCompaction();
        else {
          await this.#fold('rebuild', true);
          persisted = await this.#persist();
        }
      }
      return {
        upserted,
        removed,
        chunks: this.#snapshot.chunks.size,
        delta: this.deltaSize,
        ms: performance.now() - t0,
        persisted,
      };
    });
  }

  /**
   * Bring the delta up to date and publish a new snapshot. With `changed` (an update), only the
   * changed files are tokenised: their new records form a small segment that is merged, at the data
   * level, with the previous delta minus their old entries, so a save costs the same whatever the
   * delta's size. Without it, the delta is rebuilt from the records of every touched path.
   */
  async #rebuildDelta(
    reason: 'update' | 'compaction' | 'rebuild',
    t0: number,
    changed?: ReadonlySet<string>,
  ): Promise<void> {
    const tb = performance.now();
    const old = this.#delta;
    if (changed && old) {
      const kept = old.records.filter((r) => !changed.has(r.path));
      const fresh = [...changed]
        .filter((p) => this.#files.has(p))
        .sort(byPath)
        .flatMap((p) => this.#files.get(p)!.records);
      const records = [...kept, ...fresh];
      if (records.length === 0) this.#delta = undefined;
      else {
        const added = await this.#o.builder.build(fresh, { offThread: fresh.length > (this.#o.offThreadAt ?? 400) });
        const lexical = LexicalIndex.merge([
          { index: old.lexical, drop: old.records.filter((r) => changed.has(r.path)).map((r) => r.id) },
          { index: added.lexical },
        ]);
        const lex = lexical.toBinary();
        const chunks = utf8.encode(JSON.stringify(records));
        this.#delta = partOf(
          'delta',
          {
            lexical,
            lexBytes: lex,
            lexInfo: info(lex),
            chunksBytes: chunks,
            chunksInfo: info(chunks),
            where: 'inline',
            ms: 0,
          },
          records,
        );
      }
    } else {
      const paths = [...this.#touched].filter((p) => this.#files.has(p)).sort(byPath);
      const records = paths.flatMap((p) => this.#files.get(p)!.records);
      if (records.length === 0) this.#delta = undefined;
      else {
        const built = await this.#o.builder.build(records, {
          offThread: records.length > (this.#o.offThreadAt ?? 400),
          chunks: true,
        });
        this.#delta = partOf('delta', built, records);
      }
    }
    const tp = performance.now();
    this.#publish(reason, 'built', performance.now() - t0);
    this.#o.logger.debug(
      `delta of ${this.deltaSize} chunks built in ${(tp - tb).toFixed(1)} ms, snapshot in ${(performance.now() - tp).toFixed(1)} ms`,
    );
  }

  #publish(reason: 'load' | 'update' | 'compaction' | 'rebuild', source: 'loaded' | 'built', ms: number): void {
    const masked: string[] = [];
    for (const p of this.#touched) for (const r of this.#baseByPath.get(p) ?? []) masked.push(r.id);
    const segs: { index: LexicalIndex; masked?: string[] }[] = [];
    if (this.#base) segs.push({ index: this.#base.lexical, masked });
    if (this.#delta) segs.push({ index: this.#delta.lexical });
    const lexical: LexicalSearcher =
      segs.length === 1 && masked.length === 0 ? segs[0]!.index : new SegmentedLexical(segs);
    const chunks = new ChunkTable(new Map(this.#files), this.#sorted.slice());
    // Long-lived hosts: prepare the base for masking now, not on the next edit.
    const base = this.#base;
    if (this.#background && base && reason !== 'update') setImmediate(() => base.lexical.prepareMasks());
    this.#snapshot = this.#makeSnapshot(lexical, chunks, source, reason, ms);
    this.#o.onSnapshot?.(this.#snapshot, reason);
  }

  #makeSnapshot(
    lexical: LexicalSearcher,
    chunks: ReadonlyMap<string, ChunkRecord>,
    source: 'loaded' | 'built',
    reason: string,
    ms: number,
  ): IndexSnapshot {
    const manifest: IndexManifest = this.#manifest ?? {
      formatVersion: INDEX_FORMAT_VERSION,
      lunrVersion: '',
      createdAt: new Date(0).toISOString(),
      fingerprint: this.#o.fingerprint,
      docs: {},
      artifacts: {},
      chunkCount: 0,
    };
    return withKeyMap({ lexical, chunks, manifest, source, ...(source === 'built' ? { reason } : {}), ms });
  }

  // ---------------------------------------------------------------------------------------------
  // Compaction and full rebuild

  /**
   * Replace the whole state by `files` and build one base segment from it (off the main thread
   * when the worker is available); used for a first build and `index --rebuild`.
   */
  rebuild(files: ReadonlyMap<string, FileState>): Promise<UpdateReport> {
    return this.#serial(async () => {
      const t0 = performance.now();
      this.#generation++;
      this.#files = new Map(files);
      this.#sorted = [...files.keys()].sort(byPath);
      this.#touched = new Set(files.keys());
      await this.#fold('rebuild', false);
      const persisted = await this.#persist();
      return {
        upserted: [...files.keys()],
        removed: [],
        chunks: this.#snapshot.chunks.size,
        delta: 0,
        ms: performance.now() - t0,
        persisted,
      };
    });
  }

  /** Current records of every file, sorted by path (the order a full build uses). */
  #allRecords(): { records: ChunkRecord[]; grouped: Map<string, readonly ChunkRecord[]> } {
    const records: ChunkRecord[] = [];
    const grouped = new Map<string, readonly ChunkRecord[]>();
    for (const p of this.#sorted) {
      const rs = this.#files.get(p)!.records;
      if (rs.length) grouped.set(p, rs);
      for (const r of rs) records.push(r);
    }
    return { records, grouped };
  }

  /** Fold everything into a new base now (inside the queue). */
  async #fold(reason: 'rebuild' | 'compaction', inline: boolean): Promise<void> {
    const t0 = performance.now();
    const { records, grouped } = this.#allRecords();
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
    const { records, grouped } = this.#allRecords();
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
  async #persist(): Promise<boolean> {
    if (this.#readOnly || this.#disposed) {
      this.#unsaved = true;
      return false;
    }
    let lock: IndexLock | undefined = this.#writerLock;
    let own = false;
    if (!lock && this.#o.storage.lock) {
      try {
        lock = await this.#o.storage.lock({ waitMs: this.#o.lockWaitMs ?? 250, purpose: 'index' });
      } catch (e) {
        // A read-only checkout or folder: answer from the in-memory index and say it was not saved.
        this.#warnNotSaved(e);
        this.#unsaved = true;
        return false;
      }
      if (!lock) {
        this.#o.logger.debug('index not saved: another gitmem process holds the writer lock');
        this.#unsaved = true;
        return false;
      }
      own = true;
    }
    try {
      if (own && !(await this.#stillOurs())) {
        this.#o.logger.debug('index not saved: another process saved a newer one meanwhile');
        this.#unsaved = true;
        return false;
      }
      await this.#save();
      this.#unsaved = false;
      return true;
    } catch (e) {
      this.#warnNotSaved(e);
      this.#unsaved = true;
      return false;
    } finally {
      if (own) await lock!.release().catch(() => undefined);
    }
  }

  #notSavedWarned = false;

  /** Say once per process that the index could not be saved, and that answers still come. */
  #warnNotSaved(e: unknown): void {
    if (this.#notSavedWarned) return;
    this.#notSavedWarned = true;
    this.#o.logger.warn(
      `could not save the index (${(e as Error).message}); answering from an in-memory index, which is rebuilt on each run until the index folder is writable`,
    );
  }

  /** Is the manifest on disk the one this object last loaded or wrote? */
  async #stillOurs(): Promise<boolean> {
    const raw = await this.#o.storage.read('manifest.json').catch(() => undefined);
    return raw === undefined || sha256(raw) === this.#diskKey;
  }

  async #save(): Promise<void> {
    const artifacts: Record<string, Uint8Array> = {};
    const checksums: Record<string, ArtifactInfo> = {};
    const reuse: Record<string, ArtifactInfo> = {};
    for (const part of [this.#base, this.#delta]) {
      if (!part) continue;
      if (part.unsaved) {
        artifacts[part.lexName] = part.unsaved.lex;
        artifacts[part.chunksName] = part.unsaved.chunks;
        checksums[part.lexName] = part.lexInfo;
        checksums[part.chunksName] = part.chunksInfo;
      } else {
        reuse[part.lexName] = part.lexInfo;
        reuse[part.chunksName] = part.chunksInfo;
      }
    }
    const segments: SegmentsFile = {
      version: 1,
      base: this.#base ? { lex: this.#base.lexName, chunks: this.#base.chunksName } : null,
      delta: this.#delta ? { lex: this.#delta.lexName, chunks: this.#delta.chunksName } : null,
      touched: [...this.#touched].sort(byPath),
    };
    const segBytes = utf8.encode(JSON.stringify(segments));
    artifacts[`${SEGMENTS_PREFIX}${sha256(segBytes).slice(0, 16)}.json`] = segBytes;
    const docs: Record<string, { contentHash: string; chunkCount: number; stat?: string }> = {};
    let chunkCount = 0;
    for (const p of this.#sorted) {
      const f = this.#files.get(p)!;
      docs[p] = { contentHash: f.hash, chunkCount: f.records.length, ...(f.stat ? { stat: f.stat } : {}) };
      chunkCount += f.records.length;
    }
    this.#manifest = await saveIndex(
      this.#o.storage,
      { formatVersion: INDEX_FORMAT_VERSION, fingerprint: this.#o.fingerprint, docs, chunkCount, artifacts },
      { reuse, checksums },
    );
    this.#diskKey = sha256(JSON.stringify(this.#manifest));
    if (this.#base) this.#base.unsaved = undefined;
    if (this.#delta) this.#delta.unsaved = undefined;
  }

  /** Save now if an earlier save was skipped (e.g. the lock was busy). */
  flush(): Promise<boolean> {
    return this.#serial(async () => (this.#unsaved ? this.#persist() : true));
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
    const diffs: string[] = [];
    const say = (s: string) => {
      if (diffs.length < 50) diffs.push(s);
    };
    for (const [p, f] of files) {
      const mine = this.#files.get(p);
      if (!mine) say(`missing file ${p}`);
      else if (mine.hash !== f.hash) say(`stale file ${p}`);
    }
    for (const p of this.#files.keys()) if (!files.has(p)) say(`deleted file still indexed: ${p}`);
    const truth: ChunkRecord[] = [];
    for (const p of [...files.keys()].sort(byPath)) truth.push(...files.get(p)!.records);
    const chunks = this.#snapshot.chunks;
    if (chunks.size !== truth.length) say(`chunk count ${chunks.size}, rebuild has ${truth.length}`);
    for (const r of truth) {
      const mine = chunks.get(r.id);
      if (!mine) say(`missing chunk ${r.id}`);
      else if (JSON.stringify(mine) !== JSON.stringify(r)) say(`chunk ${r.id} differs`);
    }
    const full = LexicalIndex.build(truth.map(lexicalDoc), { lunr: false });
    const queries = options.queries ?? queryProbe(truth, options.maxQueries ?? 60);
    const lexical = this.#snapshot.lexical;
    if (lexical.size !== full.size) say(`keyword index holds ${lexical.size} chunks, rebuild ${full.size}`);
    for (const q of queries) {
      const a = lexical.search(q);
      const b = full.search(q);
      if (!sameHits(a, b)) say(`query ${JSON.stringify(q)}: incremental ${brief(a)} vs rebuild ${brief(b)}`);
    }
    return { differences: diffs, queries: queries.length };
  }

  /** Stop: no more saves; a running compaction is abandoned (the persisted state stays consistent). */
  async dispose(): Promise<void> {
    await this.idle();
    this.#disposed = true;
    await this.#writerLock?.release();
    this.#writerLock = undefined;
  }
}

function info(bytes: Uint8Array): ArtifactInfo {
  return { sha256: sha256(bytes), bytes: bytes.byteLength };
}

function lowerBoundPath(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The chunk table of one snapshot: chunk id → record, iterated in path order then chunk order (the
 * order of a full build, which filter-only recall and fusion ties depend on). Built from the per-file
 * records without copying 50k entries per update; immutable once published.
 */
class ChunkTable implements ReadonlyMap<string, ChunkRecord> {
  readonly #files: ReadonlyMap<string, FileState>;
  readonly #paths: readonly string[];
  readonly size: number;

  constructor(files: ReadonlyMap<string, FileState>, sortedPaths: readonly string[]) {
    this.#files = files;
    this.#paths = sortedPaths;
    let n = 0;
    for (const f of files.values()) n += f.records.length;
    this.size = n;
  }

  get(id: string): ChunkRecord | undefined {
    const hash = id.lastIndexOf('#');
    if (hash < 0) return undefined;
    const records = this.#files.get(id.slice(0, hash))?.records;
    if (!records) return undefined;
    for (const r of records) if (r.id === id) return r;
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  *values(): MapIterator<ChunkRecord> {
    for (const p of this.#paths) yield* this.#files.get(p)!.records;
  }

  *keys(): MapIterator<string> {
    for (const r of this.values()) yield r.id;
  }

  *entries(): MapIterator<[string, ChunkRecord]> {
    for (const r of this.values()) yield [r.id, r];
  }

  [Symbol.iterator](): MapIterator<[string, ChunkRecord]> {
    return this.entries();
  }

  forEach(fn: (value: ChunkRecord, key: string, map: ReadonlyMap<string, ChunkRecord>) => void): void {
    for (const r of this.values()) fn(r, r.id, this);
  }
}

function groupByPath(records: readonly ChunkRecord[]): Map<string, ChunkRecord[]> {
  const m = new Map<string, ChunkRecord[]>();
  for (const r of records) {
    const list = m.get(r.path);
    if (list) list.push(r);
    else m.set(r.path, [r]);
  }
  return m;
}

function partOf(kind: 'base' | 'delta', built: BuiltSegment, records: readonly ChunkRecord[]): Part {
  if (!built.chunksBytes || !built.chunksInfo) throw new MemoryError('internal', 'segment built without its chunks');
  const tag = built.lexInfo.sha256.slice(0, 16);
  return {
    lexical: built.lexical,
    records,
    lexName: `${kind}-${tag}.lex`,
    chunksName: `${kind}-${tag}.chunks.json`,
    lexInfo: built.lexInfo,
    chunksInfo: built.chunksInfo,
    unsaved: { lex: built.lexBytes, chunks: built.chunksBytes },
  };
}

function sameHits(a: readonly LexicalHit[], b: readonly LexicalHit[]): boolean {
  return a.length === b.length && a.every((h, i) => h.ref === b[i]!.ref && h.score === b[i]!.score);
}

function brief(h: readonly LexicalHit[]): string {
  return `[${h
    .slice(0, 3)
    .map((x) => `${x.ref}:${x.score.toFixed(4)}`)
    .join(', ')}${h.length > 3 ? `, … ${h.length}` : ''}]`;
}

/**
 * A deterministic query set over the vocabulary of `records`: frequent and rare single words,
 * prefixes, pairs, a required and a prohibited term.
 */
export function queryProbe(records: readonly ChunkRecord[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const r of records)
    for (const t of tokenize(r.text)) if (/^[\p{L}\p{N}]{3,}$/u.test(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const words = [...counts.entries()].sort((a, b) => b[1] - a[1] || byPath(a[0], b[0])).map(([w]) => w);
  if (words.length === 0) return ['memory'];
  const pick = (i: number) => words[Math.floor((i * 7919) % words.length)]!;
  const out = new Set<string>();
  for (let i = 0; i < Math.min(10, words.length); i++) out.add(words[i]!);
  for (let i = 0; out.size < max && i < max * 3; i++) {
    const w = pick(i);
    switch (i % 5) {
      case 0:
        out.add(w);
        break;
      case 1:
        out.add(`${w.slice(0, 3)}*`);
        break;
      case 2:
        out.add(`${w} ${pick(i + 1)}`);
        break;
      case 3:
        out.add(`+${w} ${pick(i + 2)}`);
        break;
      default:
        out.add(`${pick(i + 3)} -${w}`);
    }
  }
  return [...out].slice(0, max);
}
