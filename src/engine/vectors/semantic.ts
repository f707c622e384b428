// The vector half of recall: a lazily created embedder, a VectorTable keyed by embedding key (hash of
// the text that is embedded), persisted under its own manifest beside the keyword index. Unchanged
// chunks are never re-embedded. A missing or failing model → `unavailable` with a reason, never a throw.
// How the vectors lie on disk (write, read back, stat keys) is engine/vectors/vector-sets.ts; when a long run
// saves them, engine/vectors/vector-checkpoint.ts.
// deps: core, indexes, engine (vector-sets). Storage arrives through the IndexStorage port.
import { SerialQueue } from '../../core/serial.js';
import { isMemoryError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { IndexStorage, Logger } from '../../core/ports.js';
import type { Embedder } from '../../indexes/embed/embedder.js';
import { loadIndex } from '../../indexes/manifest/store.js';
import {
  prefixedStorage,
  readVectorSet,
  recordVectorKeys,
  VECTOR_FORMAT_VERSION,
  writeVectorSet,
  type VectorSet,
} from './vector-sets.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { VectorTable } from '../../indexes/vector/vector.js';
import { dot, meanUnitVector } from '../../indexes/vector/vector-mean.js';
import { compareHits } from '../../indexes/fusion/ranked.js';
import { UnusedVectors } from './unused-vectors.js';
import { chunkerFingerprint } from '../../parse/chunk.js';
import type { ChunkRecord } from '../chunks/index-manager.js';
import { clipText, embedText } from './embed-text.js';
import { CHECKPOINT_MS, checkpointDue } from './vector-checkpoint.js';

export interface VectorSyncReport {
  /** Chunks embedded now. */
  readonly embedded: number;
  /** Distinct embedding keys still missing (over the inline limit or time budget). */
  readonly missing: number;
  /** Distinct embedding keys in the workspace. */
  readonly total: number;
  readonly ms: number;
  /** The run stopped early because its `signal` was aborted (what was done is saved). */
  readonly interrupted: boolean;
}

/**
 * What {@link SemanticIndex.sync} embeds from: every chunk's (embedding key, id) and a record by id,
 * read only for the keys that lack a vector (a loaded 50k-chunk index keeps its records encoded).
 */
export interface EmbedSource {
  vectorKeys(): Iterable<readonly [vkey: string, id: string]>;
  get(id: string): ChunkRecord | undefined;
  /** Embedding key → ids of the chunks that carry it, when already at hand (a snapshot's, engine/live/vector-key-map.ts). */
  keyMap?(): ReadonlyMap<string, readonly string[]>;
}

/** Embedding key → the first chunk that carries it: the source's map when it has one, else one walk. */
function keyMapOf(source: EmbedSource): ReadonlyMap<string, readonly string[]> {
  if (source.keyMap) return source.keyMap();
  const m = new Map<string, readonly string[]>();
  for (const [k, id] of source.vectorKeys()) if (!m.has(k)) m.set(k, [id]);
  return m;
}

function recordSource(records: readonly ChunkRecord[]): EmbedSource {
  const byId = new Map(records.map((r) => [r.id, r]));
  return {
    *vectorKeys() {
      for (const r of records) if (r.vkey) yield [r.vkey, r.id] as const;
    },
    get: (id) => byId.get(id),
  };
}

/** Chunks handed to the embedder per call (it batches them further); progress and checkpoints fall between calls. */
export const EMBED_GROUP = 32;
/** `p`, or undefined as soon as `signal` aborts (`p` keeps running; its result is ignored). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) resolve(undefined);
        else reject(e);
      },
    );
  });
}

/** Semantic state of one Memory: created lazily on first use. */
export class SemanticIndex {
  readonly #storage: IndexStorage;
  readonly #createEmbedder: () => Promise<Embedder>;
  readonly #logger: Logger;
  #embedder: Embedder | undefined;
  #unavailable: string | undefined;
  #table: VectorTable | undefined;
  #fingerprint = '';
  #dirty = false;
  #started: Promise<void> | undefined;
  /**
   * Serialises embedder calls (B27: no overlapping session runs from two callers): each group of a
   * {@link sync} is one entry, so a query embedding waits for at most one group, not a whole run.
   */
  readonly #queue = new SerialQueue();
  /** Serialises {@link sync} runs and saves: one run changes the table at a time. */
  readonly #runs = new SerialQueue();

  /** Run `fn` on the embedder queue (one embedder call at a time). */
  #embed<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queue.run(fn);
  }
  /** Runs a save under the index writer lock (set by engine/freshness/freshness.ts); false while another process writes. */
  #underLock: (save: () => Promise<void>) => Promise<boolean> = (save) => save().then(() => true);

  constructor(storage: IndexStorage, createEmbedder: () => Promise<Embedder>, logger: Logger) {
    this.#storage = prefixedStorage(storage, 'vectors-');
    this.#createEmbedder = createEmbedder;
    this.#logger = logger;
  }

  /** Take the index writer lock around every vector write (B40: one writer of the index folder). */
  saveUnder(underLock: (save: () => Promise<void>) => Promise<boolean>): void {
    this.#underLock = underLock;
  }

  /** Why semantic recall is off, or undefined when it is available (after {@link start}). */
  get unavailable(): string | undefined {
    return this.#unavailable;
  }

  get modelId(): string | undefined {
    return this.#embedder?.modelId;
  }

  /** Vectors of chunks in use at the last sync (unused ones kept for an undo, engine/vectors/unused-vectors.ts, not counted). */
  get size(): number {
    return (this.#table?.size ?? 0) - this.#orphans.size;
  }

  /** Unused vectors kept for an undo (engine/vectors/unused-vectors.ts). */
  readonly #orphans = new UnusedVectors();

  /** Create the embedder and load persisted vectors (a corrupt or foreign file is discarded). */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    try {
      this.#embedder = await this.#createEmbedder();
    } catch (e) {
      this.#unavailable = isMemoryError(e) ? e.message : `embedding model failed to load: ${(e as Error).message}`;
      this.#logger.debug(`semantic recall off: ${this.#unavailable}`);
      return;
    }
    this.#fingerprint = sha256(`${this.#embedder.fingerprint}|${chunkerFingerprint()}|${VECTOR_FORMAT_VERSION}`).slice(
      0,
      32,
    );
    const dims = this.#embedder.dims;
    // The float32 vectors stay in their file (ranged reads): the table holds int8 codes and reads
    // back only the rows a query re-scores (a quarter of the memory at 50k chunks).
    const res = await loadIndex(this.#storage, {
      formatVersion: VECTOR_FORMAT_VERSION,
      fingerprint: this.#fingerprint,
      ranged: (name) => name.endsWith('.f32'),
    });
    if (res.ok) {
      try {
        const { table, set } = readVectorSet(res, dims);
        this.#table = table;
        this.#savedSet = set;
        if (res.restatted?.length) await this.#recordKeys(res.manifest);
        return;
      } catch (e) {
        this.#logger.warn(`vector index unreadable, rebuilding: ${(e as Error).message}`);
      }
    } else if (res.reason !== 'missing') {
      this.#logger.debug(`vector index ${res.reason}; re-embedding`);
    }
    this.#table = new VectorTable(this.#embedder.dims);
  }

  /**
   * Make sure the embedder can really run (its runtime and model load), not only that its files
   * exist: vectors on disk from an earlier run say nothing about this process. A failure makes
   * {@link unavailable} say why. @returns {@link unavailable} afterwards.
   */
  async probe(): Promise<string | undefined> {
    await this.start();
    const embedder = this.#embedder;
    if (!embedder || this.#unavailable || !embedder.load) return this.#unavailable;
    try {
      await embedder.load();
    } catch (e) {
      this.#unavailable = isMemoryError(e) ? e.message : `embedding model failed to load: ${(e as Error).message}`;
      this.#logger.warn(`semantic recall off: ${this.#unavailable}`);
    }
    return this.#unavailable;
  }

  /** The embedder once {@link start} created it (for status: model id, verified hashes). */
  get embedder(): Embedder | undefined {
    return this.#embedder;
  }

  /**
   * Embed the chunks whose key is not in the table yet (at most `limit`), drop keys nothing uses,
   * and persist when anything changed. Texts go to the embedder sorted by length, so its batches
   * pad little. `onProgress(0, total)` once when a run with anything to embed starts, then
   * `onProgress(done, total)` after each group of {@link EMBED_GROUP} chunks.
   * With `persist` (the default) finished vectors are also saved during the run, after each group
   * and before its progress is reported, when engine/vectors/vector-checkpoint.ts {@link checkpointDue} says
   * so: at most every `checkpointMs` (default {@link CHECKPOINT_MS}) and never more often than keeps
   * saving under ~5 % of the time, except that a save is always due for a small table and once the
   * vectors since the last one reach a tenth of the table: a process killed mid-run
   * (even SIGKILL) keeps them, and
   * the next run embeds only the rest. `checkpoint` (default: `persist`) turns those saves during
   * the run on or off by itself: a watch session's background catch-up checkpoints a long run but
   * leaves the save at its end to the session's delayed save.
   * Runs are serialised; what a run embeds is decided when the run before it has finished. Each group
   * is one call on the embedder queue, so a query embedding ({@link search}) waits for one group at
   * most, not for the whole run.
   * `signal` stops the run after the group in progress; what is done is saved and the report says
   * `interrupted`. `budgetMs` bounds the run in time (counted from this call, waiting included): no
   * new group starts once it has passed, though the first group always runs so that repeated calls
   * make progress; the rest stays `missing`.
   */
  async sync(
    chunks: readonly ChunkRecord[] | EmbedSource,
    options: {
      limit?: number;
      onProgress?: (done: number, total: number) => void;
      persist?: boolean;
      checkpoint?: boolean;
      checkpointMs?: number;
      signal?: AbortSignal;
      budgetMs?: number;
    } = {},
  ): Promise<VectorSyncReport> {
    const called = performance.now();
    await this.start();
    const t0 = performance.now();
    const embedder = this.#embedder;
    const table = this.#table;
    if (!embedder || !table) return { embedded: 0, missing: 0, total: 0, ms: 0, interrupted: false };
    const persist = options.persist !== false;
    const checkpoint = options.checkpoint ?? persist;
    const every = Math.max(0, options.checkpointMs ?? CHECKPOINT_MS);
    let embedded = 0;
    let interrupted = false;
    let missing: string[] = [];
    let total = 0;
    const run = async () => {
      // What to embed is decided once the run before this one has finished (it may have embedded some).
      const source = Array.isArray(chunks) ? recordSource(chunks) : (chunks as EmbedSource);
      // Embedding key → the chunks that carry it (only the keys to embed read their record).
      const byKey = keyMapOf(source);
      if (this.#orphans.release(table, byKey)) this.#dirty = true;
      const stillMissing = table.missing(byKey.keys());
      const todo = stillMissing
        .slice(0, options.limit ?? stillMissing.length)
        .map((k) => ({ k, text: embedText(source.get(byKey.get(k)![0]!)!) }));
      // Similar lengths side by side: each batch the embedder runs pads only to its own longest text.
      todo.sort((a, b) => a.text.length - b.text.length || (a.k < b.k ? -1 : 1));
      missing = stillMissing;
      total = byKey.size;
      if (todo.length > 0) options.onProgress?.(0, todo.length);
      let lastSave = performance.now();
      let saveCost = 0;
      let sinceSave = 0;
      for (let i = 0; i < todo.length; i += EMBED_GROUP) {
        if (options.signal?.aborted) {
          interrupted = true;
          return;
        }
        if (i > 0 && options.budgetMs !== undefined && performance.now() - called >= options.budgetMs) return;
        const group = todo.slice(i, i + EMBED_GROUP);
        let vecs: Float32Array[] | undefined;
        try {
          // An abort does not wait for the batch in flight: its vectors are dropped, the rest is saved.
          vecs = await untilAborted(
            this.#embed(() => embedder.embed(group.map((g) => g.text))),
            options.signal,
          );
          if (!vecs) {
            interrupted = true;
            return;
          }
        } catch (e) {
          this.#unavailable = isMemoryError(e) ? e.message : `embedding failed: ${(e as Error).message}`;
          this.#logger.warn(this.#unavailable);
          return;
        }
        group.forEach((g, j) => table.set(g.k, vecs[j]!));
        embedded += group.length;
        sinceSave += group.length;
        this.#dirty = true;
        const now = performance.now();
        const due = checkpointDue(now - lastSave, every, saveCost, table.size, sinceSave);
        if (checkpoint && i + EMBED_GROUP < todo.length && due) {
          await this.#save();
          lastSave = performance.now();
          saveCost = lastSave - now;
          sinceSave = 0;
        }
        // After the checkpoint: a reported count is (normally) a saved count.
        options.onProgress?.(embedded, todo.length);
      }
    };
    await this.#runs.run(run);
    if (this.#dirty && persist) await this.flush();
    return { embedded, missing: missing.length - embedded, total, ms: performance.now() - t0, interrupted };
  }

  /** True when vectors changed since the last save (sync with `persist: false`). */
  get dirty(): boolean {
    return this.#dirty;
  }

  /** Save the vectors if they changed since the last save (after syncs with `persist: false`). */
  async flush(): Promise<void> {
    if (!this.#dirty) return;
    await this.#runs.run(() => (this.#dirty ? this.#save() : undefined));
  }

  /**
   * How many distinct keys of `keys` have a vector: the vectors in use by a given chunk table, which
   * {@link size} can only tell after a sync in this process (until then it also counts the unused
   * vectors kept for an undo).
   */
  countOf(keys: Iterable<string>): number {
    const table = this.#table;
    if (!table) return 0;
    const seen = new Set<string>();
    for (const k of keys) if (!seen.has(k) && table.has(k)) seen.add(k);
    return seen.size;
  }

  /** Embedding keys of chunks in use at the last sync (for paranoid checks; kept unused ones are left out). */
  keys(): string[] {
    return this.#table ? this.#table.ids().filter((k) => !this.#orphans.has(k)) : [];
  }

  async #save(): Promise<void> {
    const table = this.#table;
    if (!table) return;
    const ser = table.serialize();
    try {
      if (!(await this.#underLock(() => this.#write(ser)))) {
        // Another process writes the index folder (a watcher, a language server): it embeds the
        // same files itself; these vectors stay in memory for this run (still dirty).
        if (!this.#busyWarned)
          this.#logger.warn(
            `vectors not saved: another gitmem process writes the index in ${this.#storage.location}; they are kept in memory for this run`,
          );
        this.#busyWarned = true;
        return;
      }
    } catch (e) {
      // A read-only index folder: keep the vectors in memory for this run and say so once.
      this.#saveError = (e as Error).message;
      if (!this.#saveWarned)
        this.#logger.warn(`could not save the vectors (${(e as Error).message}); they are kept in memory for this run`);
      this.#saveWarned = true;
      return;
    }
    this.#dirty = false;
    this.#saveError = undefined;
  }

  #saveWarned = false;
  #busyWarned = false;
  #saveError: string | undefined;

  /** Why the last vector save failed (an unwritable index folder), or undefined after a good one. */
  get saveError(): string | undefined {
    return this.#saveError;
  }

  /** Record the stat keys a load kept through a full hash (vector-sets.ts recordVectorKeys); best effort. */
  async #recordKeys(loaded: IndexManifest): Promise<void> {
    try {
      await recordVectorKeys(this.#storage, loaded, this.#underLock);
    } catch (e) {
      this.#logger.debug(`vector index stat keys not recorded: ${(e as Error).message}`);
    }
  }

  /** The artifact set the manifest names now (see {@link VECTOR_SETS}); undefined before any. */
  #savedSet: VectorSet | undefined;

  async #write(ser: ReturnType<VectorTable['serialize']>): Promise<void> {
    this.#savedSet = await writeVectorSet(this.#storage, this.#fingerprint, ser, this.#savedSet);
  }

  /**
   * Nearest embedding keys to `query`, best first; several texts search with the normalised mean of
   * their embeddings. `also`: keys scored too even when outside the top `k` (e.g. the keyword
   * candidates, so fusion sees every candidate's cosine); a key without a vector is skipped.
   * @returns undefined when semantic recall is unavailable.
   */
  async search(
    query: string | readonly string[],
    k: number,
    accept?: (key: string) => boolean,
    also?: Iterable<string>,
  ): Promise<{ ref: string; score: number }[] | undefined> {
    await this.start();
    if (!this.#embedder || !this.#table || this.#unavailable) return undefined;
    let q: Float32Array | undefined;
    try {
      const texts = (typeof query === 'string' ? [query] : query).map((t) => clipText(t));
      q = meanUnitVector(await this.#embed(() => this.#embedder!.embed(texts)));
    } catch (e) {
      this.#unavailable = isMemoryError(e) ? e.message : `query embedding failed: ${(e as Error).message}`;
      return undefined;
    }
    if (!q) return undefined;
    const hits = this.#table.topK(q, k, accept);
    if (also === undefined) return hits;
    const seen = new Set(hits.map((h) => h.ref));
    for (const key of also) {
      if (seen.has(key)) continue;
      seen.add(key);
      const v = this.#table.get(key);
      if (v) hits.push({ ref: key, score: dot(v, q) });
    }
    return hits.sort(compareHits);
  }

  /**
   * The stored vector of embedding key `key`, read now: no await, never embedded. Undefined before
   * {@link start} has finished, while semantic recall is unavailable, when no vector has that key, or
   * when its row cannot be read back.
   */
  storedVector(key: string): Float32Array | undefined {
    if (!this.#embedder || this.#unavailable) return undefined;
    try {
      return this.#table?.get(key);
    } catch {
      return undefined;
    }
  }

  /**
   * The vector of `text` (an {@link embedText} form): the stored one when its key has one, else
   * embedded now (not kept). @returns undefined when semantic recall is unavailable or embedding fails.
   */
  async vectorOf(text: string): Promise<Float32Array | undefined> {
    await this.start();
    if (!this.#embedder || !this.#table || this.#unavailable) return undefined;
    const clipped = clipText(text);
    const stored = this.storedVector(sha256(clipped));
    if (stored) return stored;
    try {
      return (await this.#embed(() => this.#embedder!.embed([clipped])))[0];
    } catch {
      return undefined;
    }
  }

  async dispose(): Promise<void> {
    this.#table?.close();
    await this.#embedder?.dispose();
  }
}
