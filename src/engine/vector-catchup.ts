// The vector half of an index update in a long-lived process (watcher batches, startup
// reconciliation): embed the new chunks of the snapshot just published, and the delayed vector save
// of a watch session. IndexFreshness (engine/freshness.ts) calls it after the keyword index of an
// update is published. deps: core, engine (semantic, vector-freshness, index-manager, load).
import { Debouncer } from '../core/debounce.js';
import type { Logger } from '../core/ports.js';
import type { IndexSnapshot } from './index-manager.js';
import type { LoadedConfig } from './load.js';
import type { SemanticIndex } from './semantic.js';
import type { VectorFreshness } from './vector-freshness.js';

export interface VectorCatchUpDeps {
  readonly semantic: SemanticIndex;
  readonly vectors: VectorFreshness;
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
}

/** What the vectors of one update cost: ms since the update began (null when semantic recall is off) and chunks embedded. */
export interface VectorCatchUpReport {
  readonly vectorMs: number | null;
  readonly embedded: number;
}

export class VectorCatchUp {
  readonly #d: VectorCatchUpDeps;
  /** The delayed vector save of a watch session (core/debounce.ts). */
  #vectorSave: Debouncer | undefined;
  #onEmbedProgress: ((done: number, total: number) => void) | undefined;

  constructor(deps: VectorCatchUpDeps) {
    this.#d = deps;
  }

  /** A watch session starts: vectors are saved `vectorSaveDelayMs` after the last update, not after each. */
  startSession(options: { vectorSaveDelayMs?: number; onEmbedProgress?: (done: number, total: number) => void }): void {
    this.#vectorSave = new Debouncer(() => void this.save(), {
      delayMs: options.vectorSaveDelayMs ?? 5000,
      unref: true,
    });
    this.#onEmbedProgress = options.onEmbedProgress;
  }

  /** The watch session ends: the delayed save is cancelled and the vectors saved now. */
  async endSession(): Promise<void> {
    this.#vectorSave?.cancel();
    this.#vectorSave = undefined;
    await this.save();
  }

  /**
   * Embed the chunks of `snap` that lack a vector. A batch (`changes`) embeds all its new chunks;
   * startup reconciliation at most the inline limit (a first run over a large workspace would
   * otherwise hold `ready` for minutes: `gitmem index` does that). `watching`: the vectors are
   * saved by the session's delayed save instead of at the end of the run. `t0`: when the update began.
   */
  async embed(
    snap: IndexSnapshot,
    reason: 'changes' | 'reconcile' | 'compaction' | 'rebuild',
    t0: number,
    watching: boolean,
  ): Promise<VectorCatchUpReport> {
    const semantic = this.#d.semantic;
    await semantic.start();
    if (semantic.unavailable) return { vectorMs: null, embedded: 0 };
    const rep = await this.#d.vectors.ensure(snap, {
      persist: !watching,
      ...(reason === 'changes'
        ? {}
        : {
            limit: this.#d.loaded.config.recall.inlineEmbedLimit,
            budgetMs: this.#d.loaded.config.recall.inlineEmbedMs,
          }),
      ...(this.#onEmbedProgress ? { onProgress: this.#onEmbedProgress } : {}),
    });
    const vectorMs = performance.now() - t0;
    if (watching) this.#vectorSave?.schedule();
    return { vectorMs, embedded: rep.embedded };
  }

  /** Save the vectors if they changed since the last save; a failure is a warning. */
  save(): Promise<void> {
    return this.#d.semantic
      .flush()
      .catch((e) => this.#d.logger.warn(`could not save vectors: ${(e as Error).message}`));
  }
}
