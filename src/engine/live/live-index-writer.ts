// The writer side of the live keyword index: the index-folder writer lock (held for a host's
// lifetime, or taken per save by one-shot callers), the check that no other process saved a newer
// manifest meanwhile (the key of the manifest last read or written), writing the persisted index
// through indexes/manifest/store.ts, the same lock around vector saves (engine/vectors/semantic.ts), the "not saved" bookkeeping when a save is skipped or fails, and deferred saves (B47).
// deps: core (hash, ports), indexes (manifest, store).
import { Debouncer } from '../../core/debounce.js';
import { isDiskFull } from '../../core/disk-full.js';
import { sha256 } from '../../core/hash.js';
import type { IndexLock, IndexStorage, Logger } from '../../core/ports.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { saveIndex, type ManifestFields, type SaveIndexOptions } from '../../indexes/manifest/store.js';

/**
 * Saves of one live index, under the index-folder writer lock. The process's saves (keyword, vectors)
 * and the taking of the lifetime lock take turns here (B44), so a save never finds the lock held by
 * its own process and mistakes it for another one.
 */
export class IndexWriter {
  readonly #o: { readonly storage: IndexStorage; readonly logger: Logger; readonly lockWaitMs?: number };
  #writerLock: IndexLock | undefined;
  /** The last use of the lock by this process: the next one starts when it is over. */
  #turn: Promise<unknown> = Promise.resolve();
  /** True while another live process holds the writer lock: keep the index in memory only. */
  #readOnly = false;
  #unsaved = false;
  /** sha256 of manifest.json as this object last saw or wrote it (a different one = another writer). */
  diskKey: string | undefined;

  constructor(options: { readonly storage: IndexStorage; readonly logger: Logger; readonly lockWaitMs?: number }) {
    this.#o = options;
  }

  /** True when the persisted state is behind the in-memory state (save skipped or failed). */
  get unsaved(): boolean {
    return this.#unsaved;
  }

  /** Why the last save failed (an unwritable index folder), or undefined after a good save. */
  get saveError(): string | undefined {
    return this.#saveError;
  }

  #saveError: string | undefined;

  /**
   * Hold the writer lock for this object's lifetime (watcher, language server). When another live
   * process holds it, this index stays in memory only (`readOnly`).
   */
  holdWriterLock(): Promise<boolean> {
    return this.#inTurn(() => this.#hold());
  }

  /** Run `use` after this process's earlier uses of the lock are over (one owner per process). */
  #inTurn<T>(use: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(use, use);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #hold(): Promise<boolean> {
    if (this.#writerLock) return true;
    const lock = await this.#o.storage.lock?.({ waitMs: 0, purpose: 'watch' });
    if (this.#o.storage.lock && !lock) {
      this.#readOnly = true;
      this.#o.logger.warn(
        `another gitmem process writes the index in ${this.#o.storage.location}; this one keeps its index in memory`,
      );
      return false;
    }
    this.#writerLock = lock;
    this.#readOnly = false;
    return true;
  }

  /** Set: updates are saved this long after the last one ({@link later}, LiveIndex.deferSaves), not each. */
  deferMs: number | undefined;
  /** The deferred save's clock (core/debounce.ts), made for the current `deferMs`. */
  #due: { debounce: Debouncer; ms: number } | undefined;
  /** What the deferred save runs (the latest {@link later} caller's). */
  #dueFlush: () => void = () => undefined;

  /** True while a deferred save waits for its time. */
  get deferred(): boolean {
    return this.#due?.debounce.pending === true;
  }

  /**
   * Defer the save of an update: `flush` runs after `deferMs` without another update, at most
   * `4 × deferMs` after the first one deferred. @returns false (not saved yet).
   */
  later(flush: () => void): boolean {
    const ms = this.deferMs ?? 0;
    this.#dueFlush = flush;
    if (this.#due?.ms !== ms) {
      this.#due?.debounce.cancel();
      const debounce = new Debouncer(() => this.#dueFlush(), { delayMs: ms, maxWaitMs: 4 * ms, unref: true });
      this.#due = { debounce, ms };
    }
    this.#due.debounce.schedule();
    return false;
  }

  /** Save the current state (inside the queue). @returns false when not saved. */
  persist(save: () => Promise<void>, disposed: boolean): Promise<boolean> {
    this.#due?.debounce.cancel();
    return this.#inTurn(() => this.#persist(save, disposed));
  }

  async #persist(save: () => Promise<void>, disposed: boolean): Promise<boolean> {
    if (this.#readOnly || disposed) {
      this.#unsaved = true;
      return false;
    }
    let lock: IndexLock | undefined = this.#writerLock;
    let own = false;
    if (!lock && this.#o.storage.lock) {
      try {
        lock = await this.#o.storage.lock({ waitMs: this.#o.lockWaitMs ?? 250, purpose: 'index' });
      } catch (e) {
        // A read-only checkout or folder, or a full disk: answer from the in-memory index and say it
        // was not saved (`gitmem index` fails on saveError; before, it said another process held the lock).
        this.#warnNotSaved(e);
        this.#saveError = (e as Error).message;
        this.#unsaved = true;
        return false;
      }
      if (!lock) {
        this.#o.logger.debug('index not saved: another gitmem process holds the writer lock');
        this.#unsaved = true;
        return false;
      }
      own = true;
    }
    try {
      if (own && !(await this.#stillOurs())) {
        this.#o.logger.debug('index not saved: another process saved a newer one meanwhile');
        this.#unsaved = true;
        return false;
      }
      await save();
      this.#unsaved = false;
      this.#saveError = undefined;
      return true;
    } catch (e) {
      this.#warnNotSaved(e);
      this.#saveError = (e as Error).message;
      this.#unsaved = true;
      return false;
    } finally {
      if (own) await lock!.release().catch(() => undefined);
    }
  }

  /**
   * Run `save` under the writer lock (B37, B40): the one this object holds for its lifetime, else
   * one taken for this save. Vector saves go through here, so no two processes write the index
   * folder at once. @returns false, without calling `save`, while another live process holds it.
   * @throws what taking the lock (an unwritable folder) or `save` throws.
   */
  underLock(save: () => Promise<void>, purpose: string): Promise<boolean> {
    return this.#inTurn(() => this.#under(save, purpose));
  }

  async #under(save: () => Promise<void>, purpose: string): Promise<boolean> {
    const lock =
      this.#writerLock || !this.#o.storage.lock ? undefined : this.#readOnly ? null : await this.#take(purpose);
    if (lock === null) return false;
    try {
      await save();
      return true;
    } finally {
      await lock?.release().catch(() => undefined);
    }
  }

  /** The writer lock for one save, waiting up to `lockWaitMs`; null while another process holds it. */
  async #take(purpose: string): Promise<IndexLock | null> {
    return (await this.#o.storage.lock!({ waitMs: this.#o.lockWaitMs ?? 250, purpose })) ?? null;
  }

  #notSavedWarned = false;

  /** Say once per process that the index could not be saved, and that answers still come. */
  #warnNotSaved(e: unknown): void {
    if (this.#notSavedWarned) return;
    this.#notSavedWarned = true;
    const until = isDiskFull(e) ? 'there is free space on its disk' : 'the index folder is writable';
    this.#o.logger.warn(
      `could not save the index (${(e as Error).message}); answering from an in-memory index, which is rebuilt on each run until ${until}`,
    );
  }

  /**
   * Write artifacts and manifest (manifest last) and record the new manifest's key. `current` is
   * the manifest this object loaded or wrote: being ours, saveIndex need not re-read it, and its
   * written text gives the new key without serialising 2 MB again.
   */
  async write(
    fields: ManifestFields & { readonly artifacts: Readonly<Record<string, Uint8Array>> },
    options: Pick<SaveIndexOptions, 'reuse' | 'checksums'>,
    current: IndexManifest | undefined,
  ): Promise<IndexManifest> {
    let key = '';
    const previous = current && this.diskKey !== undefined ? { previous: current } : {};
    const onWritten = (text: string) => void (key = sha256(text));
    const manifest = await saveIndex(this.#o.storage, fields, { ...options, ...previous, onWritten });
    this.diskKey = key || sha256(JSON.stringify(manifest));
    return manifest;
  }

  /**
   * Take the manifest on disk now as the one this object knows (a rebuild that never loaded it, as
   * `index --rebuild` does: its save replaces that manifest, and only a newer one written meanwhile
   * by another process stops it).
   */
  async knowDisk(): Promise<void> {
    const raw = await this.#o.storage.read('manifest.json').catch(() => undefined);
    this.diskKey = raw === undefined ? undefined : sha256(raw);
  }

  /** Is the manifest on disk the one this object last loaded or wrote? */
  async #stillOurs(): Promise<boolean> {
    const raw = await this.#o.storage.read('manifest.json').catch(() => undefined);
    return raw === undefined || sha256(raw) === this.diskKey;
  }

  /** Release the writer lock held by {@link holdWriterLock}. */
  release(): Promise<void> {
    // After a save of this process in progress, which may be writing under it.
    return this.#inTurn(async () => {
      await this.#writerLock?.release();
      this.#writerLock = undefined;
    });
  }
}
