// Index updates of a language-server session. File events, saves and closes of edited documents
// queue their paths on the session Memory's one change queue (engine/freshness/change-queue.ts, the queue
// `gitmem watch` and the MCP server use): after its quiet period the queue applies them as one batch
// (incremental: only those files are re-read, re-chunked and re-embedded), with the HEAD-move check
// before each pass, so a `git checkout` re-indexes the files git changed. One save → one update
// (B30); unchanged content never queues (the model compares content hashes first). This file turns
// the queue's passes into the server's status and update count. `gitmem/reindex` reconciles
// everything. deps: core, service (through the session).
import type { Disposable } from '../core/events.js';
import type { RelPath } from '../core/paths.js';
import type { Logger } from '../core/ports.js';
import type { Session } from './session.js';
import type { ServerStatus } from './status.js';

/** The change a path had (engine/freshness/change-queue.ts ChangeKind). */
export type ChangeKind = 'created' | 'changed' | 'deleted';

export interface IndexUpdatesDeps {
  /** The current session (updates for a session that was replaced are dropped). */
  session(): Session | undefined;
  readonly status: ServerStatus;
  readonly log: Logger;
  /** Quiet period before a batch runs, in ms. */
  readonly delayMs: number;
  /** Called after a full reconcile, to republish every document's diagnostics. */
  publishAll(s: Session): void;
}

/** The language server's view of its sessions' change queues. */
export class IndexUpdates {
  readonly #d: IndexUpdatesDeps;
  #count = 0;
  #disposed = false;
  #attached: { s: Session; subs: Disposable[] } | undefined;

  constructor(deps: IndexUpdatesDeps) {
    this.#d = deps;
  }

  /** Completed index updates after the first build. */
  get count(): number {
    return this.#count;
  }

  /** Paths queued or being indexed. */
  get pending(): number {
    return this.#queue()?.pending ?? 0;
  }

  /** Paths queued and not yet handed to the index. */
  get queued(): number {
    return this.#queue()?.queued ?? 0;
  }

  /**
   * Follow `s`'s Memory (call once it is open, before its first index build): its change queue gets
   * this server's quiet period and the HEAD check, and its passes update the status.
   */
  async attach(s: Session): Promise<void> {
    this.#detach();
    const changes = s.memory.context.freshness.changes;
    const live = () => !this.#disposed && this.#d.session() === s && s.indexed;
    const { status, log } = this.#d;
    const subs = [
      changes.onWillApply((b) => {
        if (!live()) return;
        const n = b.created.length + b.changed.length + b.deleted.length;
        status.set({ ...status.state, state: 'indexing', message: `updating ${n} file(s)` });
      }),
      changes.onDidApply(({ event, error }) => {
        if (!live()) return;
        if (!event) {
          log.error(`gitmem: index update failed: ${(error as Error)?.stack ?? error}`);
          status.set({ ...status.state, state: 'error', message: (error as Error)?.message ?? String(error) });
          return;
        }
        this.#count++;
        for (const f of event.failed) log.warn(`gitmem: could not index ${f.path}: ${f.reason}`);
        const st = status.state;
        status.set(
          status.ready(
            s.model.workspace.size,
            event.chunks,
            st.vectors ?? null,
            st.degraded ?? null,
            event.vectorsPending,
          ),
        );
      }),
    ];
    this.#attached = { s, subs };
    await s.memory.context.freshness.follow({ delayMs: this.#d.delayMs });
  }

  /** Queue `path`; the batch runs after the quiet period. */
  schedule(path: RelPath, kind: ChangeKind): void {
    if (this.#disposed) return;
    this.#queue()?.schedule(path, kind);
  }

  /** Run the queued batch now (boot calls it for events that arrived during the first build). */
  async flush(): Promise<void> {
    await this.#queue()?.flush();
  }

  /** Full reconcile (gitmem/reindex): every file hashed against the index, file list refreshed. */
  async reindex(rebuild = false): Promise<void> {
    const s = this.#d.session();
    if (!s || !s.indexed) return;
    const { status, log } = this.#d;
    // Queued changes first: the reconcile then finds them in the index (the freshness gate keeps the order).
    await this.flush();
    try {
      status.set({ ...status.state, state: 'indexing', message: 'updating the recall index' });
      // Ready once the keyword index is (B43): the vectors follow in the background, as after the first open.
      const rep = await s.memory.index({ ...(rebuild ? { rebuild: true } : {}), background: true });
      await s.model.refreshFileList();
      if (this.#d.session() !== s) return;
      this.#count++;
      this.#d.publishAll(s);
      status.set(status.readyAfter(rep));
      // A catch-up that finished meanwhile: its `vectors` event came before this status, so say it here.
      if (rep.vectors.background && !s.memory.context.freshness.catchUp?.busy) {
        const degraded = s.memory.context.semantic?.unavailable ?? null;
        status.vectorsProgress(0, { vectors: degraded ? null : rep.vectors.total, degraded });
      }
    } catch (e) {
      log.error(`gitmem: index update failed: ${(e as Error)?.stack ?? e}`);
      status.set({ ...status.state, state: 'error', message: (e as Error)?.message ?? String(e) });
    }
  }

  /** Stop the timer; later schedules are ignored. */
  dispose(): void {
    this.#disposed = true;
    this.#queue()?.dispose();
    this.#detach();
  }

  /** The current session's queue, when this server follows it. */
  #queue() {
    const s = this.#d.session();
    return s && this.#attached?.s === s ? s.memory.context.freshness.changes : undefined;
  }

  #detach(): void {
    for (const d of this.#attached?.subs ?? []) d.dispose();
    this.#attached = undefined;
  }
}
