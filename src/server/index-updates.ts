// Index updates of a language-server session. File events, saves and closes of edited documents
// queue their paths; after a quiet period the queue goes to Memory.applyChanges as one batch
// (incremental: only those files are re-read, re-chunked and re-embedded). One save → one update
// (B30); unchanged content never queues (the model compares content hashes first). `gitmem/reindex`
// reconciles everything. deps: core, service (through the session).
import { Debouncer } from '../core/debounce.js';
import type { RelPath } from '../core/paths.js';
import type { Logger } from '../core/ports.js';
import type { Session } from './session.js';
import type { ServerStatus } from './status.js';

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

/** The debounced queue of index updates for one server. */
export class IndexUpdates {
  readonly #d: IndexUpdatesDeps;
  readonly #pending = new Map<RelPath, ChangeKind>();
  readonly #debounce: Debouncer;
  #running: Promise<void> | undefined;
  #inFlight = 0;
  #count = 0;
  #disposed = false;

  constructor(deps: IndexUpdatesDeps) {
    this.#d = deps;
    this.#debounce = new Debouncer(() => void this.flush(), { delayMs: deps.delayMs });
  }

  /** Completed index updates after the first build. */
  get count(): number {
    return this.#count;
  }

  /** Paths queued or being indexed. */
  get pending(): number {
    return this.#pending.size + this.#inFlight;
  }

  /** Paths queued and not yet handed to the index. */
  get queued(): number {
    return this.#pending.size;
  }

  /** Queue `path`; the batch runs after the quiet period. */
  schedule(path: RelPath, kind: ChangeKind): void {
    if (this.#disposed) return;
    const prev = this.#pending.get(path);
    this.#pending.set(path, prev === 'created' && kind === 'changed' ? 'created' : kind);
    this.#debounce.schedule();
  }

  /** Run the queued batch now (boot calls it for events that arrived during the first build). */
  async flush(): Promise<void> {
    const s = this.#d.session();
    if (!s || !s.indexed || this.#pending.size === 0) return; // boot() re-queues after the first build
    if (this.#running) {
      await this.#running;
      return this.flush();
    }
    const { status, log } = this.#d;
    const batch = { created: [] as RelPath[], changed: [] as RelPath[], deleted: [] as RelPath[] };
    for (const [path, kind] of this.#pending) batch[kind].push(path);
    this.#pending.clear();
    this.#inFlight = batch.created.length + batch.changed.length + batch.deleted.length;
    this.#running = (async () => {
      try {
        status.set({
          ...status.state,
          state: 'indexing',
          message: `updating ${batch.created.length + batch.changed.length + batch.deleted.length} file(s)`,
        });
        const ev = await s.memory.applyChanges(batch);
        if (this.#d.session() !== s) return;
        this.#count++;
        for (const f of ev.failed) log.warn(`gitmem: could not index ${f.path}: ${f.reason}`);
        status.set({
          ...status.ready(
            s.model.workspace.size,
            ev.chunks,
            status.state.vectors ?? null,
            status.state.degraded ?? null,
            ev.vectorsPending,
          ),
        });
      } catch (e) {
        log.error(`gitmem: index update failed: ${(e as Error)?.stack ?? e}`);
        status.set({ ...status.state, state: 'error', message: (e as Error)?.message ?? String(e) });
      } finally {
        this.#running = undefined;
        this.#inFlight = 0;
      }
    })();
    await this.#running;
  }

  /** Full reconcile (gitmem/reindex): every file hashed against the index, file list refreshed. */
  async reindex(rebuild = false): Promise<void> {
    const s = this.#d.session();
    if (!s || !s.indexed) return;
    const { status, log } = this.#d;
    while (this.#running) await this.#running;
    this.#running = (async () => {
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
      } finally {
        this.#running = undefined;
      }
    })();
    await this.#running;
  }

  /** Stop the timer; later schedules are ignored. */
  dispose(): void {
    this.#disposed = true;
    this.#debounce.cancel();
  }
}
