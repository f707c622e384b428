// The one queue of file changes for a Memory's index: every change a long-lived host learns of — a
// watcher batch (`gitmem watch`, the MCP server, a language server without a client watcher), a
// client's file events, a saved or edited buffer, a write the process made itself — is merged here,
// per path, and applied to the index one pass at a time. Before each pass the HEAD check runs
// (engine/freshness/branch-switch.ts): when HEAD moved since the last pass (a checkout, a pull), the memory
// files git changed between the two commits are re-indexed in the same pass, whichever host it is.
// Changes that arrive while a pass runs (or while a rebuild holds the freshness gate) wait for the
// next pass: nothing is lost. deps: core (debounce, events, paths, ports), engine (branch-switch,
// freshness-types).
import { Debouncer } from '../../core/debounce.js';
import { Emitter, type Event } from '../../core/events.js';
import type { RelPath } from '../../core/paths.js';
import type { FileChangeBatch, Logger } from '../../core/ports.js';
import { withHeadMove, type HeadMove } from './branch-switch.js';
import type { MemoryChangeEvent } from './freshness-types.js';

export type ChangeKind = 'created' | 'changed' | 'deleted';

/** What a pass applied: the batch (the HEAD move's files included) and its event, or its error. */
export interface AppliedChanges {
  readonly batch: FileChangeBatch;
  readonly event?: MemoryChangeEvent;
  readonly error?: unknown;
}

export interface ChangeQueueDeps {
  /** Apply one merged batch to the index (IndexFreshness.applyChanges, under the freshness gate). */
  apply(batch: FileChangeBatch, head: HeadMove | undefined): Promise<MemoryChangeEvent>;
  readonly logger: Logger;
}

interface Waiter {
  resolve(e: MemoryChangeEvent): void;
  reject(e: unknown): void;
}

/** The kind a path keeps when `next` arrives while `prev` is still queued. */
function merged(prev: ChangeKind | undefined, next: ChangeKind): ChangeKind {
  if (prev === 'created' && next === 'changed') return 'created';
  if (prev === 'deleted' && next === 'created') return 'changed'; // an atomic save: unlink, then add
  return next;
}

/** The merged, per-path queue of changes of one index; see the file comment. */
export class ChangeQueue {
  readonly #d: ChangeQueueDeps;
  #pending = new Map<RelPath, ChangeKind>();
  #waiters: Waiter[] = [];
  #inFlight = 0;
  #draining: Promise<void> | undefined;
  #head: (() => Promise<HeadMove | undefined>) | undefined;
  #debounce: Debouncer | undefined;
  #disposed = false;
  readonly #willApply = new Emitter<FileChangeBatch>();
  readonly #didApply = new Emitter<AppliedChanges>();

  constructor(deps: ChangeQueueDeps) {
    this.#d = deps;
  }

  /** Fired when a pass starts, with its batch (HEAD move included). */
  get onWillApply(): Event<FileChangeBatch> {
    return this.#willApply.event;
  }

  /** Fired when a pass is done (applied or failed). */
  get onDidApply(): Event<AppliedChanges> {
    return this.#didApply.event;
  }

  /**
   * Follow HEAD from now on: `moved` reports a HEAD move since its last call (branch-switch.ts
   * HeadTracker.moved), asked before every pass. `delayMs`: quiet period of {@link schedule}.
   */
  follow(moved: (() => Promise<HeadMove | undefined>) | undefined, options: { delayMs?: number } = {}): void {
    this.#head = moved;
    if (options.delayMs !== undefined) {
      this.#debounce?.dispose();
      this.#debounce = new Debouncer(() => this.#kick(), { delayMs: options.delayMs });
    }
  }

  /** True when a HEAD check runs before each pass. */
  get followsHead(): boolean {
    return this.#head !== undefined;
  }

  /** Paths queued or being applied. */
  get pending(): number {
    return this.#pending.size + this.#inFlight;
  }

  /** Paths queued and not yet handed to the index. */
  get queued(): number {
    return this.#pending.size;
  }

  /**
   * Queue a settled batch (a watcher's, or a write's own paths) and apply it at once, merged with
   * whatever else is queued. @returns the event of the pass that applied it.
   */
  add(batch: FileChangeBatch): Promise<MemoryChangeEvent> {
    this.#merge(batch);
    const done = new Promise<MemoryChangeEvent>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.#kick();
    return done;
  }

  /** Queue one path; the pass runs after the quiet period given to {@link follow} (at once without one). */
  schedule(path: RelPath, kind: ChangeKind): void {
    if (this.#disposed) return;
    this.#pending.set(path, merged(this.#pending.get(path), kind));
    if (this.#debounce) this.#debounce.schedule();
    else this.#kick();
  }

  /** Apply what is queued now (skip the quiet period) and resolve when it has been applied. */
  async flush(): Promise<void> {
    this.#debounce?.cancel();
    if (this.#pending.size) this.#kick();
    await this.settled();
  }

  /** Resolves when every change queued and not waiting for its quiet period has been applied. */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Stop the quiet-period timer; later {@link schedule} calls are ignored ({@link add} still applies). */
  dispose(): void {
    this.#disposed = true;
    this.#debounce?.dispose();
  }

  #merge(batch: FileChangeBatch): void {
    for (const p of batch.deleted) this.#pending.set(p, merged(this.#pending.get(p), 'deleted'));
    for (const p of batch.created) this.#pending.set(p, merged(this.#pending.get(p), 'created'));
    for (const p of batch.changed) this.#pending.set(p, merged(this.#pending.get(p), 'changed'));
  }

  #kick(): void {
    // Nothing to apply (a quiet period that ended after an add took its paths): no drain. One started
    // over an empty queue would finish inside this call, before `#draining` is assigned, and stay
    // recorded as running forever, so no later change would be applied.
    if (this.#draining || (!this.#pending.size && !this.#waiters.length)) return;
    this.#draining = this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.size || this.#waiters.length) await this.#next();
    } finally {
      // Cleared in the same turn as the loop's last check: a change queued by whoever the last pass
      // resolved starts a new drain instead of waiting for a pass that will not come (with a
      // `.finally()` chained on the drain, that ran a turn too late and the change waited for the next one).
      this.#draining = undefined;
    }
  }

  /** Take what is queued and apply it as one pass; resolve (or reject) the adds it holds. */
  async #next(): Promise<void> {
    const taken = this.#pending;
    const waiters = this.#waiters;
    this.#pending = new Map();
    this.#waiters = [];
    const batch = { created: [] as RelPath[], changed: [] as RelPath[], deleted: [] as RelPath[] };
    for (const [path, kind] of [...taken].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) batch[kind].push(path);
    this.#inFlight = taken.size;
    const settle = await this.#pass(batch).then(
      (event) => (w: Waiter) => w.resolve(event),
      (e: unknown) => {
        this.#d.logger.error(`index update failed: ${(e as Error)?.message ?? e}`);
        return (w: Waiter) => w.reject(e);
      },
    );
    this.#inFlight = 0;
    // Settled a turn later: their callers run once #drain has looked at the queue again.
    queueMicrotask(() => waiters.forEach(settle));
  }

  /** One pass: the HEAD check, then the merged batch with the files git changed. */
  async #pass(batch: FileChangeBatch): Promise<MemoryChangeEvent> {
    // A branch switch or pull since the last pass: add the files git changed between the commits.
    const move = await this.#head?.().catch((e: unknown) => {
      this.#d.logger.warn(`could not read the HEAD move: ${(e as Error)?.message ?? e}`);
      return undefined;
    });
    const full = withHeadMove(batch, move);
    this.#willApply.fire(full);
    try {
      const event = await this.#d.apply(full, move);
      this.#didApply.fire({ batch: full, event });
      return event;
    } catch (error) {
      this.#didApply.fire({ batch: full, error });
      throw error;
    }
  }
}
