// Keeps one Memory's index in step with the files: startup reconciliation (content hashes against
// the manifest), incremental `scan` syncs for one-shot calls, watcher batches for long-lived hosts
// (`applyChanges`), background compaction, vectors for new embedding keys only (caught up in the
// background in a long-lived process, B41), change events, and the single-writer lock (B37). memory.ts delegates its freshness work here.
// Every long-lived host's changes go through its one change queue (engine/freshness/change-queue.ts), which
// runs the HEAD-move check before each pass ({@link IndexFreshness.follow}).
// The events it fires are worded in change-events.ts.
// deps: core, engine (live-index, segment-builder, sync, semantic, vector-catchup, watch-options, load,
// index-manager, branch-switch, change-events, change-queue, walk-digest).
import { SerialQueue } from '../../core/serial.js';
import { Emitter, type Event } from '../../core/events.js';
import type { FileChangeBatch, FileWatcher, WatcherFactory, WatchOptions } from '../../core/ports.js';
import { HeadTracker, type HeadMove } from './branch-switch.js';
import { ChangeQueue } from './change-queue.js';
import { compactionEvent, updateEvent, vectorsEvent } from './change-events.js';
import type { IndexSnapshot } from '../chunks/index-manager.js';
import { LiveIndex, type FileState, type UpdateReport } from '../live/live-index.js';
import { readWorkspace, type KnownFile, type KnownLookup, type WorkspaceRead } from '../load/load.js';
import { logRebuild, streamRebuild } from './stream-rebuild.js';
import { SegmentBuilder } from '../segments/segment-builder.js';
import { VectorFreshness } from '../vectors/vector-freshness.js';
import { VectorCatchUp } from '../vectors/vector-catchup.js';
import { watchOptionsOf } from './watch-options.js';
import { contentUnchanged } from '../../indexes/manifest/manifest-diff.js';
import { diffStates, readBatch, statesOf, type ReadFiles } from './sync.js';
import { recordWalkDigest, unchangedRead, walkDigestHolds, type WalkDigest } from './walk-digest.js';

import type {
  FreshnessDeps,
  MemoryChangeEvent,
  Progress,
  SyncOutcome,
  WatchSession,
  WatchSessionOptions,
} from './freshness-types.js';

export type { MemoryChangeEvent, SyncOutcome, WatchSession, WatchSessionOptions } from './freshness-types.js';

export class IndexFreshness {
  readonly #d: FreshnessDeps;
  readonly #emitter: Emitter<MemoryChangeEvent>;
  /** `vectors` events held while an update's own event is not fired yet ({@link #holdingVectors}). */
  #heldVectors: MemoryChangeEvent[] | undefined;
  readonly #builder: SegmentBuilder;
  readonly #live: LiveIndex;
  #published: IndexSnapshot | undefined;
  #opened: Promise<void> | undefined;
  /** The in-memory index reflects a full read of the files (load + reconcile, or a rebuild). */
  #hasState = false;
  #watcher: FileWatcher | undefined;
  #head: HeadTracker | undefined;
  #following: Promise<void> | undefined;
  #session: WatchSession | undefined;
  /** The vector half of updates (engine/vectors/vector-catchup.ts); undefined when semantic recall is off. */
  readonly #catchUp: VectorCatchUp | undefined;
  /**
   * A long-lived process (batches, a watch session, a background index): every published update is
   * caught up in the background. A one-shot call embeds inline instead (recall.inlineEmbedLimit).
   */
  #background = false;
  /** Serialises batches ({@link applyChanges}) with stat-walk syncs ({@link exclusive}). */
  readonly #gate = new SerialQueue();
  /** Skips of the walk already warned about (path and reason). */
  readonly #skipsSaid = new Set<string>();
  /** Skips the reads met (said or not): a walk that met one does not vouch for its listing. */
  #skipsMet = 0;

  /** Vector freshness of the snapshots this engine publishes; undefined when semantic recall is off. */
  readonly vectors: VectorFreshness | undefined;

  /**
   * The one queue of file changes (engine/freshness/change-queue.ts): watcher batches, a language server's
   * events and saves, a long-lived host's own writes. After {@link follow}, each pass checks HEAD.
   */
  readonly changes: ChangeQueue;

  constructor(deps: FreshnessDeps) {
    this.#d = deps;
    this.vectors = deps.semantic ? new VectorFreshness(deps.semantic) : undefined;
    this.changes = new ChangeQueue({ apply: (batch, head) => this.applyChanges(batch, head), logger: deps.logger });
    this.#catchUp =
      deps.semantic && this.vectors
        ? new VectorCatchUp({
            semantic: deps.semantic,
            vectors: this.vectors,
            loaded: deps.loaded,
            logger: deps.logger,
          })
        : undefined;
    this.#emitter = new Emitter<MemoryChangeEvent>((e) =>
      deps.logger.error(`onDidChange listener failed: ${(e as Error)?.message ?? e}`),
    );
    this.#builder = new SegmentBuilder({ script: deps.lexicalWorker, logger: deps.logger });
    this.#live = new LiveIndex({
      storage: deps.storage,
      fingerprint: deps.fingerprint,
      logger: deps.logger,
      builder: this.#builder,
      ...deps.tuning,
      onSnapshot: (snap, reason) => {
        this.#published = snap;
        // Recall answers from this snapshot now (the update is still being saved): its vectors follow.
        if (this.#background && (reason === 'update' || reason === 'rebuild'))
          this.#catchUp?.request(snap, performance.now() - snap.ms);
        if (reason === 'compaction') this.#emitter.fire(compactionEvent(snap, this.#live.deltaSize));
      },
    });
    this.#catchUp?.onDone((r) => {
      const e = vectorsEvent(r, this.#live.deltaSize, !this.#live.unsaved);
      // A batch's vectors can be done before its own update event is fired: they wait for it.
      if (this.#heldVectors) this.#heldVectors.push(e);
      else this.#emitter.fire(e);
    });
    // Vectors are saved under the keyword index's writer lock: one writer of the folder (B40).
    deps.semantic?.saveUnder((save) => this.#live.underWriterLock(save, 'vectors'));
  }

  get onDidChange(): Event<MemoryChangeEvent> {
    return this.#emitter.event;
  }

  /**
   * The last snapshot published (loaded, updated, compacted, rebuilt or confirmed by a sync), or
   * undefined before the first: what a `manual` host answers recall from.
   */
  get snapshot(): IndexSnapshot | undefined {
    return this.#published;
  }

  /** The live index (for status, tests and benchmarks). */
  get live(): LiveIndex {
    return this.#live;
  }

  /** `worker` when compactions run off the main thread. */
  get builderMode(): 'worker' | 'inline' {
    return this.#builder.mode;
  }

  #open(): Promise<void> {
    this.#opened ??= this.#live.load().then(() => undefined);
    return this.#opened;
  }

  /**
   * What the index knows per path (hash and stat key), for a stat walk that reads only changed
   * files; undefined when the next {@link sync} must rebuild from a full read (no usable index).
   */
  async known(): Promise<((path: string) => KnownFile | undefined) | undefined> {
    await this.#open();
    if (!this.#hasState && this.#live.loadFailure !== undefined) return undefined;
    // Read from the manifest's file tables while no file state is made (a walk over 10k unchanged files).
    const live = this.#live;
    return (p) => live.knownFile(p);
  }

  /**
   * Run `fn` (a read of the files and a {@link sync}) after every batch and walk before it, and
   * before any that come later: a walk that read a file never lands after a batch that read a
   * newer version of it. Not re-entrant.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#gate.run(fn);
  }

  /** A skipped file, said once per path and reason a process: a long-running server walks before every call (U51). */
  readonly #onSkip = (p: string, r: string): void => {
    this.#skipsMet++;
    const said = `${p}\u0000${r}`;
    if (this.#skipsSaid.has(said)) return;
    this.#skipsSaid.add(said);
    this.#d.logger.warn(`skipped ${p}: ${r}`);
  };

  /**
   * Read the memory files (engine/load/load.ts readWorkspace; skipped files are logged as warnings, each
   * path and reason once for this object's life). With
   * `known`, files whose stat key matches the recorded one are not read.
   */
  read(onProgress?: Progress, known?: KnownLookup | Promise<KnownLookup | undefined>): Promise<WorkspaceRead> {
    return readWorkspace(this.#d.fs, this.#d.loaded, {
      onProgress: onProgress ? (d, t) => onProgress('read', d, t) : undefined,
      onSkip: this.#onSkip,
      ...(known ? { known } : {}),
    });
  }

  /**
   * The stat walk a call makes before it answers: read the files whose stat key changed (every file
   * with `rebuild` or `full`) and {@link sync} the index to them, serialised with watcher batches.
   * `listing`: the digest of a listing taken before this walk by another process (a host's client,
   * platform/listing-prefetch.ts), recorded when the walk finds every file as the index has it.
   */
  walk(
    options: { rebuild?: boolean; full?: boolean; onProgress?: Progress; listing?: string } = {},
  ): Promise<{ raw: WorkspaceRead; snap: IndexSnapshot; out: SyncOutcome }> {
    return this.exclusive(async () => {
      const s = await streamRebuild(
        this.#live,
        this.#d,
        { ...options, onSkip: this.#onSkip },
        async () => (await this.known()) === undefined,
      );
      if (s) this.#hasState = true;
      if (s) return s;
      // The index loads (its artifact reads in flight) while the files are listed and stat'ed.
      const known = options.rebuild || options.full ? undefined : this.known();
      const skips = this.#skipsMet;
      const raw = await this.read(options.onProgress, known);
      this.#d.logger.debug(`walked the workspace: ${raw.count} memory files listed, ${raw.files.length} read`);
      options.onProgress?.('update', 0, 0);
      const out = await this.sync(raw, options.rebuild ? { rebuild: true } : {});
      // Every file as the index has it and nothing skipped: this listing needs no walk next time.
      if (known && this.#skipsMet === skips && unchangedRead(raw, this.#live.files.size)) {
        const current = await this.#listing(options.listing);
        if (current) await recordWalkDigest(this.#d.storage, current);
      }
      return { raw, snap: out.snap, out };
    });
  }

  /**
   * The snapshot a one-shot answer reads: the loaded index, with no walk, when the workspace's
   * listing digest is the one recorded after the last walk that found every file as this index has
   * it (engine/freshness/walk-digest.ts); else the {@link walk}'s. `listing`: the digest of a listing another
   * process took of this workspace before asking (a host's client), in place of this process's own.
   */
  async answerSnapshot(listing?: string): Promise<IndexSnapshot> {
    const current = await this.#listing(listing);
    if (current && (await walkDigestHolds(this.#d.storage, current))) {
      this.#d.logger.debug('no walk: the workspace lists as it did after the last clean walk');
      this.#published = this.#live.snapshot;
      return this.#live.snapshot;
    }
    return (await this.walk(listing ? { listing } : {})).snap;
  }

  /**
   * The workspace's listing digest (`given`, else this process's own listing's) with the loaded index
   * it is checked against; undefined without one.
   */
  async #listing(given?: string): Promise<WalkDigest | undefined> {
    // The index loads while the listing is still being taken (find runs on the other core).
    const opening = this.#open();
    const listing = given ?? (await this.#d.fs.listingDigest?.());
    await opening;
    if (!listing) return undefined;
    const manifest = this.#live.manifestKey;
    // The index in memory is the one saved under `manifest`: loaded from it, or (a host that built
    // the index itself, whose load failed) rebuilt and saved as it.
    const asSaved = this.#live.loadFailure === undefined || (this.#hasState && !this.#live.unsaved);
    if (!asSaved || manifest === undefined) return undefined;
    return { listing, manifest, fingerprint: this.#d.fingerprint };
  }

  /**
   * Bring the index to the files of `raw`: load the persisted index once, then re-index only what
   * differs (or everything when there is no usable index, or `rebuild`: then `raw` must be a full
   * read, i.e. made without {@link known}).
   */
  async sync(raw: ReadFiles, options: { rebuild?: boolean } = {}): Promise<SyncOutcome> {
    const out = await this.#sync(raw, options);
    this.#published = out.snap;
    return out;
  }

  async #sync(raw: ReadFiles, options: { rebuild?: boolean }): Promise<SyncOutcome> {
    await this.#open();
    const live = this.#live;
    if (options.rebuild || (!this.#hasState && live.loadFailure !== undefined)) {
      const reason = logRebuild(this.#d.logger, options.rebuild ? 'rebuild requested' : live.loadFailure!);
      const update = await live.rebuild(statesOf(raw, this.#d.loaded, this.#d.docCache));
      this.#hasState = true;
      return { snap: live.snapshot, source: 'built', reason, update };
    }
    this.#hasState = true;
    if (unchangedRead(raw, live.files.size)) {
      // Every indexed file was found with its recorded stat key and nothing else was: no diff to make.
      this.#published = live.snapshot;
      return { snap: live.snapshot, source: live.snapshot.source };
    }
    const { changes, diff } = diffStates(live.files, raw, this.#d.loaded, this.#d.docCache);
    if (contentUnchanged(diff)) {
      if (diff.restat.length > 0) await live.update(changes); // stat keys only: saved, nothing re-indexed
      this.#published = live.snapshot;
      return { snap: live.snapshot, source: live.snapshot.source };
    }
    const update = await live.update(changes);
    const reason = `index updated (${update.upserted.length} re-indexed, ${update.removed.length} removed)`;
    return { snap: live.snapshot, source: 'built', reason, update };
  }

  /**
   * Startup reconciliation: a full read diffed against the indexed hashes; what changed is
   * re-indexed (vectors too) and reported through {@link onDidChange}.
   */
  reconcile(): Promise<MemoryChangeEvent | undefined> {
    return this.#holdingVectors(async () => {
      const t0 = performance.now();
      const out = await this.sync(await this.read(undefined, await this.known()));
      if (!out.update) return undefined;
      return this.#fire(out.reason === 'rebuild requested' ? 'rebuild' : 'reconcile', out.update, [], t0);
    });
  }

  /**
   * Apply one batch of file changes (watcher, language server): read → parse → keyword delta →
   * {@link onDidChange}; the vectors for new embedding keys follow in the background
   * (engine/vectors/vector-catchup.ts, then a `vectors` event), outside this lock. Batches are applied one at a time; a
   * batch that arrives meanwhile is merged into the next pass (B17). Unreadable files keep their
   * last good entry and are reported in `failed` (B38).
   */
  applyChanges(batch: FileChangeBatch, head?: HeadMove): Promise<MemoryChangeEvent> {
    return this.exclusive(() => this.#applyChanges(batch, head));
  }

  async #applyChanges(batch: FileChangeBatch, head?: HeadMove): Promise<MemoryChangeEvent> {
    this.#background = true;
    await this.#open();
    if (!this.#hasState) await this.reconcile();
    return this.#holdingVectors(() => this.#applyBatch(batch, head));
  }

  /**
   * Run `fn` (an update and the firing of its event) with `vectors` events held back, then fire them:
   * the vectors of a small batch are embedded in the background and could otherwise be reported
   * before the update that made them (a listener read `vectors`, then `changes`).
   */
  async #holdingVectors<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.#heldVectors === undefined;
    if (outer) this.#heldVectors = [];
    try {
      return await fn();
    } finally {
      if (outer) {
        const held = this.#heldVectors ?? [];
        this.#heldVectors = undefined;
        for (const e of held) this.#emitter.fire(e);
      }
    }
  }

  async #applyBatch(batch: FileChangeBatch, head?: HeadMove): Promise<MemoryChangeEvent> {
    const t0 = performance.now();
    const failed: { path: string; reason: string }[] = [];
    const changes = await readBatch(this.#d.fs, this.#d.loaded, batch, this.#d.docCache, (path, reason) => {
      failed.push({ path, reason });
      this.#d.logger.warn(`skipped ${path}: ${reason}`);
    });
    const update = await this.#live.update(changes);
    const files = head ? head.batch.created.length + head.batch.changed.length + head.batch.deleted.length : 0;
    return this.#fire(
      'changes',
      update,
      failed,
      t0,
      head ? { from: head.from ?? null, to: head.to ?? null, files } : undefined,
    );
  }

  async #fire(
    reason: MemoryChangeEvent['reason'],
    update: UpdateReport,
    failed: MemoryChangeEvent['failed'],
    t0: number,
    head?: MemoryChangeEvent['head'],
  ): Promise<MemoryChangeEvent> {
    const keywordMs = performance.now() - t0;
    // The keyword index answers now; the new chunks' vectors follow in the background (vector-catchup.ts).
    let pending = 0;
    if (this.#catchUp && update.upserted.length + update.removed.length > 0) {
      if (!this.#background) this.#catchUp.request(this.#live.snapshot, t0); // else requested when published
      await this.#d.semantic!.start(); // loads the vectors on disk (once), so the count below is true
      if (this.#d.semantic!.unavailable === undefined) pending = this.vectors!.behind(this.#live.snapshot).missing;
    }
    const e = { ...updateEvent(reason, update, failed, keywordMs, pending), ...(head ? { head } : {}) };
    if (update.upserted.length + update.removed.length + failed.length > 0 || head) this.#emitter.fire(e);
    return e;
  }

  // ---------------------------------------------------------------------------------------------
  // Watching

  /** What a watcher of this workspace is told (engine/freshness/watch-options.ts). */
  watchOptions(options: WatchSessionOptions = {}): WatchOptions {
    return watchOptionsOf(this.#d, options);
  }

  /**
   * Watch the workspace: take the writer lock, start the watcher, reconcile with the files (edits
   * made while nothing watched are re-indexed before this resolves; their vectors follow in the
   * background), then apply every settled batch.
   */
  async startWatching(createWatcher: WatcherFactory, options: WatchSessionOptions = {}): Promise<WatchSession> {
    if (this.#session) return this.#session;
    await this.#open();
    const writer = await this.#live.holdWriterLock();
    this.#live.setBackground(true);
    this.#catchUp?.startSession(options);
    this.#background = true;
    const watcher = createWatcher(this.watchOptions(options));
    this.#watcher = watcher;
    watcher.onDidChangeFiles((b) => void this.changes.add(b).catch(() => undefined)); // logged by the queue
    watcher.onDidSkip((p) => this.#d.logger.warn(`watcher skipped ${p.path}: ${p.reason}`));
    await watcher.ready;
    await this.follow();
    const reconciled = await this.reconcile();
    // Vectors an earlier process did not finish (killed mid catch-up) are embedded in the background too.
    await this.#catchUp?.requestIfBehind(this.#live.snapshot, performance.now());
    this.#session = {
      mode: watcher.mode,
      writer,
      reconciled,
      files: this.#live.files.size,
      chunks: this.#live.snapshot.chunks.size,
      builder: this.#builder.mode,
    };
    return this.#session;
  }

  /**
   * A long-lived host (watch, MCP, language server) follows the files: updates are caught up in the
   * background and each pass of {@link changes} checks HEAD (branch-switch.ts; file events only
   * outside git). Idempotent. `delayMs`: quiet period of `changes.schedule`.
   */
  follow(options: { delayMs?: number } = {}): Promise<void> {
    this.#background = true;
    this.#following ??= (async () => {
      if (!this.#d.gitdir) return;
      try {
        const head = new HeadTracker(this.#d.fs.root, this.#d.loaded, this.#d.gitdir);
        await head.start();
        this.#head = head;
      } catch (e) {
        this.#head = undefined; // not inside the work tree, or no commit readable: file events only
        this.#d.logger.debug(`branch switches follow file events only: ${(e as Error).message}`);
      }
    })();
    return this.#following.then(() => {
      const head = this.#head;
      this.changes.follow(head ? () => head.moved() : undefined, options);
    });
  }

  /** Resolves when every batch delivered so far has been applied, its vectors embedded too. */
  async settled(): Promise<void> {
    await this.changes.settled();
    await this.#live.idle();
    await this.#catchUp?.idle();
  }

  /** The background vector catch-up (engine/vectors/vector-catchup.ts); undefined when semantic recall is off. */
  get catchUp(): VectorCatchUp | undefined {
    return this.#catchUp;
  }

  /** From now on every published update is caught up in the background (a long-lived process). */
  background(): VectorCatchUp | undefined {
    this.#background = true;
    return this.#catchUp;
  }

  /**
   * Stop watching: deliver and apply what the watcher still holds, save (keyword index, vectors),
   * release the writer lock. A compaction still running is abandoned; the saved index stays valid.
   */
  async stopWatching(): Promise<void> {
    const watcher = this.#watcher;
    if (!watcher) return void (await this.#live.saveDeferred()); // a language server's last edits (B47)
    try {
      await watcher.flush();
    } catch {
      /* closing anyway */
    }
    await this.settled();
    await watcher.close();
    this.#watcher = undefined;
    this.#session = undefined;
    await this.#catchUp?.endSession();
    await this.#live.flush();
    this.#live.setBackground(false);
    await this.#builder.dispose();
    await this.#live.dispose();
  }

  /** Paranoid check: rebuild from `raw` (no caches) and compare; also the vector keys. */
  verify(raw: ReadFiles): { differences: string[]; queries: number } {
    const truth: Map<string, FileState> = statesOf(raw, this.#d.loaded);
    const res = this.#live.verify(truth);
    if (this.vectors) res.differences.push(...this.vectors.verify(truth));
    return res;
  }
}
