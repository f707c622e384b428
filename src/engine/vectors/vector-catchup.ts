// The vector catch-up of a long-lived process (watcher batches, startup reconciliation, the
// language server's first open): after the keyword index of an update is published and recall
// answers from it, the chunks that still lack a vector are embedded in the background, on one
// serial chain (a request made while a run is in progress is merged into the next run), in groups
// of 32 that leave the embedder queue free between groups for a query (engine/vectors/semantic.ts). Recall
// meanwhile answers from what is embedded plus keyword for the rest, and says so. Finished vectors
// are checkpointed during a long run (a kill keeps them) and an abort saves what is done.
// IndexFreshness (engine/freshness/freshness.ts) owns one. deps: core, engine (semantic, vector-freshness,
// index-manager, load).
import { Debouncer } from '../../core/debounce.js';
import { Emitter, type Event } from '../../core/events.js';
import type { Logger } from '../../core/ports.js';
import type { IndexSnapshot } from '../chunks/index-manager.js';
import type { LoadedConfig } from '../load/load.js';
import type { SemanticIndex } from './semantic.js';
import type { VectorFreshness } from './vector-freshness.js';

/** A finished catch-up: what {@link VectorCatchUp.onDone} reports. */
export interface VectorCatchUpReport {
  /** The snapshot caught up to (the newest one requested). */
  readonly snap: IndexSnapshot;
  /** Chunks embedded since the catch-up began (every merged request). */
  readonly embedded: number;
  /**
   * From the start of the earliest update it covers until its vectors were embedded (ms); null when
   * semantic recall is off or the embedder failed.
   */
  readonly vectorMs: number | null;
  /** Distinct embedding keys still without a vector (0 unless the embedder failed). */
  readonly pending: number;
  /** Distinct embedding keys of `snap` that have a vector. */
  readonly vectors: number;
}

export interface VectorCatchUpDeps {
  readonly semantic: SemanticIndex;
  readonly vectors: VectorFreshness;
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
}

/** What recall uses from the vectors of a snapshot: a note when they are partial and how many chunks lack one. */
export interface RecallVectors {
  readonly note?: string;
  readonly pending: number;
}

export class VectorCatchUp {
  readonly #d: VectorCatchUpDeps;
  /** The delayed vector save of a watch session (core/debounce.ts). */
  #vectorSave: Debouncer | undefined;
  #onEmbedProgress: ((done: number, total: number) => void) | undefined;
  #watching = false;
  /** The newest snapshot requested and not yet taken by a run. */
  #wanted: IndexSnapshot | undefined;
  /** Start of the earliest update not caught up yet. */
  #since: number | undefined;
  #embedded = 0;
  #running: Promise<void> | undefined;
  #abort: AbortController | undefined;
  #stopped = false;
  readonly #done = new Emitter<VectorCatchUpReport>();
  readonly #progress = new Emitter<{ readonly done: number; readonly total: number }>();

  constructor(deps: VectorCatchUpDeps) {
    this.#d = deps;
  }

  /** Fires when a catch-up finished (nothing requested is left). */
  get onDone(): Event<VectorCatchUpReport> {
    return this.#done.event;
  }

  /** Progress of each run: `(0, total)` when it starts, then after each group of 32. */
  get onProgress(): Event<{ readonly done: number; readonly total: number }> {
    return this.#progress.event;
  }

  /** A run is in progress or requested. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** A watch session starts: vectors are saved `vectorSaveDelayMs` after a catch-up, not at its end. */
  startSession(options: { vectorSaveDelayMs?: number; onEmbedProgress?: (done: number, total: number) => void }): void {
    this.#watching = true;
    this.#vectorSave = new Debouncer(() => void this.save(), {
      delayMs: options.vectorSaveDelayMs ?? 5000,
      unref: true,
    });
    this.#onEmbedProgress = options.onEmbedProgress;
  }

  /** The watch session ends: a run in progress stops after its group, the vectors are saved now. */
  async endSession(): Promise<void> {
    await this.stop();
    this.#vectorSave?.cancel();
    this.#vectorSave = undefined;
    this.#watching = false;
    this.#stopped = false;
    await this.save();
  }

  /**
   * Catch the vectors up to `snap` in the background (`t0`: when the update that published it
   * began). Merged into the next run when one is in progress; the finished catch-up fires
   * {@link onDone}.
   */
  request(snap: IndexSnapshot, t0: number): void {
    if (this.#stopped) return;
    this.#wanted = snap;
    this.#since ??= t0;
    this.#kick();
  }

  /** {@link request} when `snap` lacks any vector (after loading the vectors); @returns the keys it lacks. */
  async requestIfBehind(snap: IndexSnapshot, t0: number): Promise<{ missing: number; total: number }> {
    await this.#d.semantic.start();
    if (this.#d.semantic.unavailable) return { missing: 0, total: 0 };
    const b = this.#d.vectors.behind(snap);
    if (b.missing > 0) this.request(snap, t0);
    return b;
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
      if (this.#wanted && !this.#stopped) this.#kick();
    });
  }

  async #run(): Promise<void> {
    const semantic = this.#d.semantic;
    await semantic.start();
    let last: IndexSnapshot | undefined;
    let pending = 0;
    while (this.#wanted && !this.#stopped) {
      const snap = this.#wanted;
      this.#wanted = undefined;
      last = snap;
      if (semantic.unavailable) break;
      const abort = new AbortController();
      this.#abort = abort;
      try {
        const rep = await this.#d.vectors.ensure(snap, {
          // A watch session saves after the catch-up (delayed); a long run is checkpointed either way.
          persist: !this.#watching,
          checkpoint: true,
          signal: abort.signal,
          onProgress: (done, total) => {
            this.#onEmbedProgress?.(done, total);
            this.#progress.fire({ done, total });
          },
        });
        this.#embedded += rep.embedded;
        pending = rep.missing;
      } catch (e) {
        this.#d.logger.warn(`embedding in the background failed: ${(e as Error)?.message ?? e}`);
      } finally {
        this.#abort = undefined;
      }
    }
    if (this.#watching) this.#vectorSave?.schedule();
    if (!last || this.#wanted || this.#stopped) return; // the next run reports, or nobody listens any more
    const since = this.#since ?? performance.now();
    const embedded = this.#embedded;
    this.#since = undefined;
    this.#embedded = 0;
    const b = semantic.unavailable ? { missing: 0, total: 0 } : this.#d.vectors.behind(last);
    this.#done.fire({
      snap: last,
      embedded,
      vectorMs: semantic.unavailable ? null : performance.now() - since,
      pending: semantic.unavailable ? pending : b.missing,
      vectors: b.total - b.missing,
    });
  }

  /** Resolves when no run is in progress or requested. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Stop: nothing new starts, a run in progress stops after its group (what it embedded is saved). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wanted = undefined;
    this.#abort?.abort();
    await this.idle();
  }

  /**
   * The vectors a recall over `snap` uses. While a catch-up runs: what is embedded (nothing waits
   * for the run), with a note saying how many chunks are found by keyword only. Otherwise the chunks
   * of `snap` without a vector are embedded first, at most `recall.inlineEmbedLimit` and no new
   * group after `recall.inlineEmbedMs` (VectorFreshness.ensure).
   */
  async forRecall(snap: IndexSnapshot, onProgress?: (done: number, total: number) => void): Promise<RecallVectors> {
    const vectors = this.#d.vectors;
    if (this.busy) {
      const b = vectors.behind(snap);
      return b.missing === 0 ? { pending: 0 } : { pending: b.missing, note: vectors.catchingUp(b) };
    }
    const recall = this.#d.loaded.config.recall;
    const rep = await vectors.ensure(snap, {
      limit: recall.inlineEmbedLimit,
      budgetMs: recall.inlineEmbedMs,
      ...(onProgress ? { onProgress } : {}),
    });
    const note = vectors.partial(snap);
    return note ? { note, pending: rep.missing } : { pending: 0 };
  }

  /** Save the vectors if they changed since the last save; a failure is a warning. */
  save(): Promise<void> {
    return this.#d.semantic
      .flush()
      .catch((e) => this.#d.logger.warn(`could not save vectors: ${(e as Error).message}`));
  }
}
