// The shapes IndexFreshness (engine/freshness/freshness.ts) takes and reports: its dependencies,
// change events, watch-session options and state, progress, and the outcome of a sync.
// deps: core (ports types), engine (types).
import type { IndexStorage, Logger, MemoryFs } from '../../core/ports.js';
import type { IndexSnapshot } from '../chunks/index-manager.js';
import type { UpdateReport } from '../live/live-index.js';
import type { LoadedConfig } from '../load/load.js';
import type { DocCache } from '../load/parse-cache.js';
import type { SemanticIndex } from '../vectors/semantic.js';

/** What IndexFreshness is built on: the workspace's files and config, the index folder, the vector half. */
export interface FreshnessDeps {
  readonly fs: MemoryFs;
  readonly loaded: LoadedConfig;
  readonly storage: IndexStorage;
  readonly fingerprint: string;
  readonly logger: Logger;
  readonly docCache?: DocCache;
  readonly semantic?: SemanticIndex;
  readonly gitdir?: string;
  readonly lexicalWorker?: string | false;
  readonly tuning?: { readonly compactAt?: number; readonly offThreadAt?: number; readonly runDocs?: number };
}

/** Progress of a read or walk: phase (`read`, `update`), done of total. */
export type Progress = (phase: string, done: number, total: number) => void;

/** What changed in the index, fired by {@link Memory.onDidChange} after each update. */
export interface MemoryChangeEvent {
  /**
   * `changes` = a watcher batch or applyChanges; `reconcile` = startup or scan; `compaction` = delta
   * folded into the base; `vectors` = the background catch-up embedded what the updates before it
   * added (no file changed: `upserted`, `removed` and `failed` are empty, `keywordMs` is 0).
   */
  readonly reason: 'changes' | 'reconcile' | 'compaction' | 'rebuild' | 'vectors';
  /** Workspace-relative paths re-indexed (created or changed). */
  readonly upserted: readonly string[];
  /** Paths that left the index. */
  readonly removed: readonly string[];
  /** Unreadable paths that kept their last good entry (reported, skipped). */
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
  /** Live chunks now. */
  readonly chunks: number;
  /** Chunks in the delta segment. */
  readonly delta: number;
  /** From the start of the update until the keyword index answered with it (ms); 0 for `vectors`. */
  readonly keywordMs: number;
  /**
   * `vectors` only: from the start of the earliest update it caught up with until every new chunk
   * had its vector (ms). Null for every other reason (an update's vectors are embedded after it, in
   * the background, and reported by the `vectors` event that follows) and when semantic recall is off.
   */
  readonly vectorMs: number | null;
  /** `vectors` only: chunks embedded by the catch-up (new embedding keys only); 0 for every other reason. */
  readonly embedded: number;
  /**
   * Chunks (distinct embedding keys) without a vector when the event fired: recall finds them by
   * keyword only until the catch-up embeds them. 0 when semantic recall is off.
   */
  readonly vectorsPending: number;
  /** `vectors` only: distinct embedding keys that have a vector now. */
  readonly vectors?: number;
  /** False when the index could not be saved (another writer holds the lock, or a write failed). */
  readonly persisted: boolean;
  /** Set when HEAD moved (branch switch, pull) before this batch: the files git changed between the two commits were re-indexed with it. */
  readonly head?: { readonly from: string | null; readonly to: string | null; readonly files: number };
}

/** Options of {@link Memory.startWatching}. */
export interface WatchSessionOptions {
  /** Quiet time that ends a burst of file events (ms). Default 40. */
  readonly debounceMs?: number;
  /** Longest a burst is held (e.g. during a git checkout) before it is applied anyway (ms). Default 2000. */
  readonly maxWaitMs?: number;
  /** Save vectors this long after the last change (ms; saving 50k vectors takes a while). Default 5000. */
  readonly vectorSaveDelayMs?: number;
  /** Embedding progress of the background catch-up (chunks done of total), for a "still working" line. */
  readonly onEmbedProgress?: (done: number, total: number) => void;
}

/** A running watch session (see {@link Memory.startWatching}). */
export interface WatchSession {
  /** `polling` after the OS watch limit was hit (ENOSPC), else `native`. */
  readonly mode: 'native' | 'polling';
  /** True when this process holds the index writer lock (else it keeps its index in memory). */
  readonly writer: boolean;
  /** What startup reconciliation changed (files edited while nothing watched). */
  readonly reconciled: MemoryChangeEvent | undefined;
  /** Memory files and live chunks when watching started. */
  readonly files: number;
  readonly chunks: number;
  /** `worker` when compactions run off the main thread. */
  readonly builder: 'worker' | 'inline';
}

/** Result of a scan/sync for {@link Memory.index}. */
export interface SyncOutcome {
  readonly snap: IndexSnapshot;
  readonly source: 'loaded' | 'built';
  readonly reason?: string;
  readonly update?: UpdateReport;
}
