// createMemory: the one application object per process. Loads config and layout, keeps the keyword
// index fresh against the files, and holds the MemoryContext every use case is called with
// (`fn(memory.context, input)`, each in its room under service/).
// deps: core, engine, indexes, service rooms. Platform objects (fs, storage) are injected.
import { diskFullHint, isDiskFull } from '../core/disk-full.js';
import type { MemoryConfig } from '../core/config.js';
import type { MemoryDoc } from '../core/document.js';
import { MemoryError } from '../core/errors.js';
import type { LayoutName } from '../core/layout.js';
import type { RelPath } from '../core/paths.js';
import { nullLogger, systemClock, type Clock, type IndexStorage, type Logger, type MemoryFs } from '../core/ports.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { indexFingerprint } from '../engine/chunks/index-manager.js';
import type { Event } from '../core/events.js';
import type { FileChangeBatch, WatcherFactory, WatchOptions } from '../core/ports.js';
import {
  IndexFreshness,
  type MemoryChangeEvent,
  type WatchSession,
  type WatchSessionOptions,
} from '../engine/freshness/freshness.js';
import { loadConfig, type LoadedConfig, type RawFile, type SkippedFile } from '../engine/load/load.js';
import { DocCache, parseCached, parseFiles } from '../engine/load/parse-cache.js';
import { SemanticIndex } from '../engine/vectors/semantic.js';
import type { Embedder } from '../indexes/embed/embedder.js';
import { embedderUnavailable } from '../indexes/embed/embedder.js';
// Type-only: the use cases a one-shot recall never runs (and the ONNX embedder, with its protobuf
// graph code) are imported when first called, so a keyword recall does not load or compile them.
import type { RememberInput, RememberResult } from './remember/remember.js';
import type { DoctorReport } from './doctor/doctor.js';
import type { MemoryContext } from './shared/memory-context.js';

export interface MemoryDeps {
  readonly fs: MemoryFs;
  /** Opens derived-state storage; `configuredDir` is `index.dir` from config (may be undefined). */
  readonly openStorage: (configuredDir: string | undefined) => IndexStorage;
  /** Absolute git dir when the workspace is inside a git work tree. */
  readonly gitdir?: string;
  /** Absolute work tree of that git dir (the code check reads cited code files there; recall results' provenance reads git there). */
  readonly workTree?: string | undefined;
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** Force a layout (overrides config and detection). */
  readonly layout?: LayoutName;
  /**
   * `scan` (default, for one-shot CLI calls): every recall re-reads and hashes the files, so an edit
   * made while nothing ran is always seen. `manual` (long-lived hosts that get file events, and
   * benchmarks): recall answers from the last snapshot until {@link Memory.index} is called again.
   */
  readonly freshness?: 'scan' | 'manual';
  /** Folder of the installed embedding model, used when config `model.dir` is unset. */
  readonly defaultModelDir?: string;
  /** Resolve a configured model folder (relative to the workspace root) to an absolute path. */
  readonly resolvePath?: (p: string) => string;
  /**
   * Embedder factory: the entries pass a worker-thread factory for long-lived hosts
   * (platform's workerEmbedderFactory), tests inject a fake; default: the ONNX model in the model
   * folder, on the calling thread. Called with the model folder, config `model.threads`, the logger
   * and config `model.bulkGraph` (whether bulk indexing may switch to the derived fp32 graph).
   */
  readonly createEmbedder?: (
    modelDir: string | undefined,
    threads: number,
    logger: Logger,
    model?: { readonly bulkGraph: boolean },
  ) => Promise<Embedder>;
  /**
   * Worker script that builds keyword segments off the main thread (compaction, full rebuild):
   * a path, or `false` to build on the calling thread. Default: `lexical-worker.js` next to the
   * running bundle (dist/), else the calling thread.
   */
  readonly lexicalWorker?: string | false;
  /** Live-index tuning: compact when the delta passes `compactAt` chunks (default 2000). */
  readonly liveIndex?: { readonly compactAt?: number; readonly offThreadAt?: number };
}

export type { MemoryChangeEvent, WatchSession, WatchSessionOptions };
export type { GetResult } from './files/get.js';
export type { RememberInput, RememberResult, DoctorReport };

export interface IndexReport {
  readonly source: 'loaded' | 'built';
  readonly reason?: string;
  readonly files: number;
  readonly chunks: number;
  readonly skipped: readonly SkippedFile[];
  readonly bytes: number;
  readonly ms: number;
  readonly location: string;
  /** Semantic half: embedded now, still missing, total distinct keys; or why it is off. */
  readonly vectors: {
    embedded: number;
    missing: number;
    total: number;
    unavailable: string | null;
    /** The run was stopped by its signal; `missing` chunks are left for the next `index`. */
    interrupted?: boolean;
    /** `index({ background: true })`: the `missing` chunks are being embedded in the background. */
    background?: boolean;
  };
  /**
   * What is on disk after the run: the keyword index, and the vectors (false when semantic recall is
   * off or unavailable, or when their save was skipped because another gitmem process writes the index).
   */
  readonly saved: { readonly keyword: boolean; readonly vectors: boolean };
  /** Files re-indexed and removed by an incremental update (absent when nothing changed or on a rebuild). */
  readonly updated?: { readonly upserted: number; readonly removed: number };
  /** `index({ paranoid: true })`: differences between the incremental index and a rebuild from scratch. */
  readonly paranoid?: { readonly differences: readonly string[]; readonly queries: number };
}

/** The application object. Every method reads the files afresh: markdown is the truth. */
export interface Memory {
  readonly root: string;
  readonly config: MemoryConfig;
  readonly loaded: LoadedConfig;
  readonly storage: IndexStorage;
  /**
   * What the use cases share (service/shared/memory-context.ts): a caller that opened this
   * workspace runs a use case directly with it, e.g. `recall(memory.context, query)`.
   */
  readonly context: MemoryContext;
  /**
   * Make the index match the files: load the persisted index, re-index only files whose content
   * hash differs (or rebuild everything with `rebuild`), embed new chunks, persist. `paranoid`
   * then rebuilds from scratch in memory and reports every difference in `report.paranoid`.
   * Finished embeddings are checkpointed during the run; `signal` (Ctrl-C in the CLI) stops the
   * embedding after the batch in progress, saves what is done and sets `vectors.interrupted`.
   * `background` (long-lived hosts: the language server's first open): resolve once the keyword
   * index is up to date; the chunks without a vector (`vectors.missing`, with `vectors.background`)
   * are embedded afterwards by the background catch-up, which fires {@link onDidChange} with reason
   * `vectors` when done and reports progress through `onProgress('embed', done, total)` meanwhile.
   */
  index(options?: {
    rebuild?: boolean;
    paranoid?: boolean;
    background?: boolean;
    onProgress?: (phase: string, done: number, total: number) => void;
    signal?: AbortSignal;
  }): Promise<IndexReport>;
  /**
   * The parsed document of one file's text, from the parse cache the index uses (parsed once per
   * path, kind and content hash: the editor's parse of a buffer is the index's parse of that save).
   */
  parse(file: RawFile): MemoryDoc;
  /** Release the embedding session. */
  dispose(): Promise<void>;
  /**
   * Fires after every index update: an applied batch (`changes`), startup reconciliation
   * (`reconcile`), a finished background compaction (`compaction`), a finished background vector
   * catch-up (`vectors`). Listeners run synchronously;
   * recall already answers from the new state when it fires.
   */
  readonly onDidChange: Event<MemoryChangeEvent>;
  /**
   * Apply file changes reported by a watcher or an editor (the language server's
   * didChangeWatchedFiles): each path is read, hashed and parsed; unchanged content is skipped
   * (B18); the keyword delta is rebuilt and published, {@link onDidChange} fires and the promise
   * resolves: recall answers from it at once. The new chunks' vectors are embedded after that by the
   * background catch-up (one run at a time, in groups a recall can pass between), which fires
   * {@link onDidChange} with reason `vectors` when done; {@link settled} waits for it. Calls are serialised. A "deleted" path whose file exists again is
   * treated as changed (atomic saves, B15/B16). Never throws on user content; unreadable files keep
   * their last good entry and are listed in `failed`.
   */
  applyChanges(batch: FileChangeBatch): Promise<MemoryChangeEvent>;
  /**
   * Watch the workspace for long-lived hosts (`gitmem watch`, the language server): takes the index
   * writer lock (B37; without it the index is kept in memory only), starts the watcher made by
   * `createWatcher` (platform/watcher.ts `createChokidarWatcher`), re-indexes files changed while
   * nothing watched, and resolves when recall is up to date ("ready"). Later batches are applied in
   * the background, one at a time, with compactions off the main thread. Call {@link stopWatching}
   * before {@link dispose}.
   */
  startWatching(createWatcher: WatcherFactory, options?: WatchSessionOptions): Promise<WatchSession>;
  /**
   * The options {@link startWatching} gives its watcher (root, memory-file filter, folders never
   * watched, git dir, debounce), for a host that routes the watcher's batches itself (the language
   * server when the client has no file watcher).
   */
  watchOptions(options?: WatchSessionOptions): WatchOptions;
  /**
   * Stop watching: apply what the watcher still holds, save the keyword index and vectors, release
   * the writer lock. The saved index is consistent at every moment, so a kill at any point is safe
   * too (the next start reconciles).
   */
  stopWatching(): Promise<void>;
  /** Resolves when every change delivered so far has been applied and embedded (tests, benchmarks). */
  settled(): Promise<void>;
  /**
   * The stat walk a one-shot call makes before it answers (files whose size, mtime, ctime or inode
   * changed are re-read and re-indexed), serialised with watcher batches. A long-lived host
   * (`manual` freshness) calls it before answering a CLI call over its socket, so its answer is
   * never staler than a cold call's. With `scan` freshness every recall walks anyway: no-op.
   * `listing`: the digest of the listing the caller took of the workspace before it asked
   * (platform/listing-prefetch.ts listingDigest): when it is the one recorded after the last walk
   * that found every file as the index has it, no walk is needed (engine/freshness/walk-digest.ts).
   */
  refresh(options?: { readonly listing?: string }): Promise<void>;
}

/**
 * Open the memory workspace behind `deps.fs`.
 * @throws MemoryError `config.invalid` when gitmem.config.json does not validate.
 */
export async function createMemory(deps: MemoryDeps): Promise<Memory> {
  const logger = deps.logger ?? nullLogger;
  const clock = deps.clock ?? systemClock;
  const fs = deps.fs;
  const loaded = await loadConfig(fs, deps.layout);
  const config = loaded.config;
  const storage = deps.openStorage(config.index.dir);
  const fingerprint = indexFingerprint(config, loaded.layout);
  const docCache = new DocCache();
  const modelDir = config.model.dir
    ? deps.resolvePath
      ? deps.resolvePath(config.model.dir)
      : config.model.dir
    : deps.defaultModelDir;
  const semantic = config.model.enabled
    ? new SemanticIndex(
        storage,
        () =>
          deps.createEmbedder
            ? deps.createEmbedder(modelDir, config.model.threads, logger, { bulkGraph: config.model.bulkGraph })
            : modelDir
              ? import('../indexes/embed/onnx-embedder.js').then((m) =>
                  m.createOnnxEmbedder({ modelDir, intraOpNumThreads: config.model.threads, hashStore: storage }),
                )
              : Promise.reject(embedderUnavailable('model-missing', 'no embedding model folder is configured')),
        logger,
      )
    : undefined;
  // Incremental freshness (engine/freshness/freshness.ts): base + delta keyword segments, watcher batches,
  // startup reconciliation, background compaction, the writer lock.
  const freshness = new IndexFreshness({
    fs,
    loaded,
    storage,
    fingerprint,
    logger,
    docCache,
    ...(semantic ? { semantic } : {}),
    ...(deps.gitdir ? { gitdir: deps.gitdir } : {}),
    ...(deps.lexicalWorker !== undefined ? { lexicalWorker: deps.lexicalWorker } : {}),
    ...(deps.liveIndex ? { tuning: deps.liveIndex } : {}),
  });
  const read: MemoryContext['read'] = (onProgress, known) => freshness.read(onProgress, known);

  // The stat walk before an answer (freshness.ts): only files whose stat key changed are read.
  const fresh: MemoryContext['fresh'] = (options) => freshness.walk(options);

  async function workspace(): Promise<MemoryWorkspace> {
    const raw = await read();
    return parseFiles(raw.files, config, docCache);
  }

  const ctx: MemoryContext = {
    root: fs.root,
    fs,
    loaded,
    config,
    storage,
    clock,
    logger,
    docCache,
    modelDir,
    semantic,
    freshness,
    freshnessMode: deps.freshness ?? 'scan',
    ...(deps.gitdir && deps.workTree ? { git: { gitdir: deps.gitdir, workTree: deps.workTree } } : {}),
    read,
    fresh,
    answerSnapshot: () => freshness.answerSnapshot(),
    workspace,
  };

  return {
    context: ctx,
    root: fs.root,
    config,
    loaded,
    storage,
    parse: (file) => parseCached(file, config, docCache),

    onDidChange: freshness.onDidChange,

    applyChanges(batch) {
      return freshness.changes.add(batch); // the one change queue (engine/freshness/change-queue.ts)
    },

    startWatching(createWatcher, options) {
      return freshness.startWatching(createWatcher, options);
    },

    watchOptions(options) {
      return freshness.watchOptions(options);
    },

    stopWatching() {
      return freshness.stopWatching();
    },

    settled() {
      return freshness.settled();
    },

    async dispose() {
      // A host that forgot stopWatching() must not leave a watcher (and its worker) running.
      await freshness.stopWatching();
      // A background catch-up stops after its group; what it embedded is saved.
      await freshness.catchUp?.stop();
      await semantic?.dispose();
    },

    async index(options = {}) {
      const t0 = performance.now();
      const { raw, snap, out } = await fresh({ ...options, ...(options.paranoid ? { full: true } : {}) });
      let vectors: IndexReport['vectors'] = {
        embedded: 0,
        missing: 0,
        total: 0,
        unavailable: 'semantic recall is turned off in config',
      };
      if (semantic && options.background) {
        const catchUp = freshness.background()!;
        const b = await catchUp.requestIfBehind(snap, t0);
        if (options.onProgress && b.missing > 0) {
          const progress = options.onProgress;
          const sub = catchUp.onProgress(({ done, total }) => progress('embed', done, total));
          const end = catchUp.onDone(() => {
            sub.dispose();
            end.dispose();
          });
        }
        vectors = {
          embedded: 0,
          missing: b.missing,
          total: b.total,
          unavailable: semantic.unavailable ?? null,
          ...(b.missing > 0 ? { background: true } : {}),
        };
      } else if (semantic) {
        const rep = await freshness.vectors!.ensure(snap, {
          onProgress: options.onProgress ? (d, t) => options.onProgress!('embed', d, t) : undefined,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        // Nothing to embed proves nothing about the runtime: check it loads, so `unavailable` is true now.
        if (rep.embedded === 0 && !rep.interrupted) await semantic.probe();
        vectors = {
          embedded: rep.embedded,
          missing: rep.missing,
          total: rep.total,
          unavailable: semantic.unavailable ?? null,
          ...(rep.interrupted ? { interrupted: true } : {}),
        };
      }
      // `gitmem index` exists to persist: an index folder it cannot write is an error, not a warning.
      const notSaved = freshness.live.saveError ?? semantic?.saveError;
      if (notSaved !== undefined) {
        throw new MemoryError('index.write-failed', `could not save the index: ${notSaved}`, {
          // A full disk is not a permission problem: say which it is (docs/bad-inputs.md R23).
          hint: isDiskFull(notSaved)
            ? diskFullHint('the index folder')
            : 'make that folder writable, or point `index.dir` in gitmem.config.json at a writable one',
        });
      }
      const paranoid = options.paranoid ? freshness.verify(raw) : undefined;
      return {
        vectors,
        saved: {
          keyword: !freshness.live.unsaved,
          vectors: semantic !== undefined && vectors.unavailable === null && !semantic.dirty,
        },
        source: out.source,
        ...(out.reason ? { reason: out.reason } : {}),
        ...(out.update && out.reason !== 'rebuild requested' && out.source === 'built'
          ? { updated: { upserted: out.update.upserted.length, removed: out.update.removed.length } }
          : {}),
        ...(paranoid ? { paranoid } : {}),
        files: raw.count,
        chunks: snap.chunks.size,
        skipped: raw.skipped,
        bytes: raw.bytes,
        ms: performance.now() - t0,
        location: storage.location,
      };
    },

    async refresh(options) {
      if (deps.freshness !== 'manual') return;
      if (options?.listing) await freshness.answerSnapshot(options.listing);
      else await fresh();
    },
  };
}

export type { RawFile };
export type { RelPath };
