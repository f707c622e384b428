// The session status the client sees: `gitmem/status` notifications, `gitmem/getStatus` answers, and
// the freshness facts behind them (watch source, last event, last update). deps: core, protocol.
import type { Connection } from 'vscode-languageserver/node.js';
import type { Clock } from '../core/ports.js';
import type { IndexReport } from '../service/memory.js';
import { StatusNotification, type StatusParams } from '../protocol/requests.js';
import type { WatchSource } from './file-watch.js';
import { toClient } from './to-client.js';

/** Current state, sent to the client on every change. */
export class ServerStatus {
  readonly #connection: Connection;
  readonly #clock: Clock;
  #state: StatusParams = { state: 'starting' };
  /** One source of file events per session (client or server watcher): see file-watch.ts. */
  watchSource: WatchSource = 'none';
  /** ISO time of the last file event, or null. */
  lastEventAt: string | null = null;
  /** ISO time of the last finished index update, or null. */
  lastUpdateAt: string | null = null;

  constructor(connection: Connection, clock: Clock) {
    this.#connection = connection;
    this.#clock = clock;
  }

  get state(): StatusParams {
    return this.#state;
  }

  /** Replace the state and send `gitmem/status`. */
  set(next: StatusParams): void {
    this.#state = next;
    toClient(() => this.#connection.sendNotification(StatusNotification, next));
  }

  /** A file event arrived now. */
  eventSeen(): void {
    this.lastEventAt = this.#clock.now().toISOString();
  }

  /** The `ready` state after a full index build or update, from its report (records the update time). */
  readyAfter(rep: Pick<IndexReport, 'files' | 'chunks' | 'vectors'>): StatusParams {
    const v = rep.vectors;
    return this.ready(
      rep.files,
      rep.chunks,
      v.unavailable ? null : v.total - (v.background ? v.missing : 0),
      v.unavailable,
      v.background ? v.missing : 0,
    );
  }

  /**
   * The `ready` state after an index build or update (records the update time). `vectorsPending`:
   * chunks the background catch-up is still embedding (keyword recall answers for them meanwhile).
   */
  ready(
    files: number,
    chunks: number,
    vectors: number | null,
    degraded: string | null,
    vectorsPending = 0,
  ): StatusParams {
    this.lastUpdateAt = this.#clock.now().toISOString();
    return {
      state: 'ready',
      files,
      chunks,
      vectors,
      degraded,
      vectorsPending,
      indexedAt: this.#clock.now().toISOString(),
      message: `${files} files, ${chunks} chunks${vectorsPending > 0 ? `; embedding ${vectorsPending} in the background` : ''}`,
    };
  }

  /**
   * The background catch-up moved on: `pending` chunks left (0: done, with `vectors` embedded and
   * `degraded` when the embedder failed). The state (ready, indexing) and the update time stay.
   */
  vectorsProgress(pending: number, done?: { vectors: number | null; degraded: string | null }): void {
    const s = this.#state;
    const base = s.message?.replace(/; embedding \d+ in the background$/, '') ?? '';
    this.set({
      ...s,
      vectorsPending: pending,
      ...(done ? { vectors: done.vectors, degraded: done.degraded } : {}),
      ...(s.state === 'ready'
        ? { message: `${base}${pending > 0 ? `; embedding ${pending} in the background` : ''}` }
        : {}),
    });
  }
}
