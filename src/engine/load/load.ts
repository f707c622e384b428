// Read the workspace from disk: config, layout, every memory file (decoded and hashed; parse-cache.ts
// turns them into MemoryDocs). Never throws on user content: unreadable, binary or oversized files
// become diagnostics. deps: core, validate (config schema). Platform objects arrive through MemoryDeps.
import { CONFIG_FILE, mergeConfig, type MemoryConfig } from '../../core/config.js';
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import type { DocKind } from '../../core/document.js';
import { jsonParseProblem, MemoryError } from '../../core/errors.js';
import { checkConfigGlobs } from '../../core/glob.js';
import { contentHash } from '../../core/hash.js';
import { classify, layoutPreset, withOverrides, type Layout, type LayoutName } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { RACY_MS, type MemoryFs } from '../../core/ports.js';
import { range } from '../../core/position.js';
import { decodeText } from '../../core/text.js';
import { validateConfig } from '../../validate/schema.js';
import { detectWorkspaceLayout } from './detect-layout.js';

export interface LoadedConfig {
  readonly config: MemoryConfig;
  /** Present when gitmem.config.json exists. */
  readonly fromFile: boolean;
  readonly layout: Layout;
  /** How the layout was chosen. */
  readonly layoutSource: 'config' | 'detected';
  /** When detected: why this layout, in words ("found notes: a daily note (Daily/2023-09-12.md)"). */
  readonly layoutReason?: string;
}

/**
 * Load and validate gitmem.config.json (if any) and settle the layout.
 * @throws MemoryError `config.invalid` with the schema errors when the file does not validate.
 */
export async function loadConfig(fs: MemoryFs, layoutOverride?: LayoutName): Promise<LoadedConfig> {
  const bytes = await fs.read(toRelPath(CONFIG_FILE));
  let raw: Record<string, unknown> | undefined;
  if (bytes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeText(bytes).text.replace(/^\uFEFF/, ''));
    } catch (e) {
      throw new MemoryError('config.invalid', `${CONFIG_FILE} is not valid JSON: ${jsonParseProblem(e)}`, {
        hint: `fix or delete ${CONFIG_FILE}`,
      });
    }
    const res = validateConfig(parsed);
    if (!res.ok) {
      const first = res.errors[0];
      throw new MemoryError(
        'config.invalid',
        `${CONFIG_FILE} is invalid: ${first ? `${first.pointer || '/'} ${first.message}` : 'schema violation'}`,
        { data: { errors: res.errors }, hint: 'see schemas/config.schema.json' },
      );
    }
    raw = parsed as Record<string, unknown>;
  }
  const config = mergeConfig(raw);
  let name: LayoutName;
  let layoutSource: LoadedConfig['layoutSource'] = 'config';
  let layoutReason: string | undefined;
  if (layoutOverride) name = layoutOverride;
  else if (config.layout) name = config.layout;
  else {
    layoutSource = 'detected';
    ({ name, reason: layoutReason } = await detectWorkspaceLayout(fs));
  }
  checkConfigGlobs('ignore', config.ignore);
  for (const [kind, globs] of Object.entries(config.kinds ?? {})) checkConfigGlobs(`kinds.${kind}`, globs ?? []);
  const layout = withOverrides(layoutPreset(name), config.kinds, config.ignore);
  return { config, fromFile: bytes !== undefined, layout, layoutSource, ...(layoutReason ? { layoutReason } : {}) };
}

/** A file that is memory but could not be indexed (binary, too large, unreadable). */
export interface SkippedFile {
  readonly path: RelPath;
  readonly code: string;
  readonly reason: string;
}

/**
 * List the memory files of `layout`. Symlinks out of the root and loops are skipped. A path `known`
 * to the index is memory without classifying it again (the index's fingerprint covers the layout's
 * kinds and ignore globs): its kind is left undefined, settled only if the file is read. While the
 * index is still loading (`later`), every markdown path is listed and the filter waits for the
 * lookup: known paths are then never classified, the rest are; a skip report of a listed path is
 * held until then and dropped when the path is not memory. Either way the same files are listed.
 */
async function listMemoryFiles(
  fs: MemoryFs,
  layout: Layout,
  onSkip: ((path: string, reason: string, unreadable?: boolean) => void) | undefined,
  known: KnownLookup | undefined,
  later?: Promise<KnownLookup | undefined>,
): Promise<{
  listed: RelPath[];
  settle: () => Promise<{ path: RelPath; kind: DocKind | undefined; at: number }[]>;
}> {
  // Each path is classified once (the walk's result comes back sorted).
  const kinds = new Map<string, DocKind>();
  const deferred = new Set<string>();
  const held: [string, string, boolean | undefined][] = [];
  const paths = await fs.list(
    (p) => {
      if (known?.(p) !== undefined) return true;
      if (!known && later && /\.md$/i.test(p)) {
        deferred.add(p);
        return true;
      }
      const kind = classify(p, layout);
      if (kind) kinds.set(p, kind);
      return kind !== undefined;
    },
    onSkip && (later ? (p, r, u) => void held.push([p, r, u]) : onSkip),
    // A link in memory to markdown outside it: the link is the path kept, not the file's own (U53).
    (p) => known?.(p) !== undefined || kinds.has(p) || classify(p, layout) !== undefined,
  );
  // `listed` may hold markdown that is not memory (until settled); `settle` gives the memory files
  // among them, each with its position in `listed`.
  const settle = async () => {
    if (later) known = await later;
    const isMemory = (p: string) => {
      if (kinds.has(p) || known?.(p) !== undefined) return true;
      if (!deferred.has(p)) return false;
      const k = classify(p, layout);
      if (k) kinds.set(p, k);
      return k !== undefined;
    };
    for (const [p, r, u] of held) if (!deferred.has(p) || isMemory(p)) onSkip!(p, r, u);
    const out: { path: RelPath; kind: DocKind | undefined; at: number }[] = [];
    paths.forEach((p, at) => {
      if (isMemory(p)) out.push({ path: p, kind: kinds.get(p), at });
    });
    return out;
  };
  return { listed: paths, settle };
}

/** How many files are read at once. */
const READ_CONCURRENCY = 32;
/** Reads in flight at once in {@link readMemoryFiles} (a few: the I/O threads are four). */
const CANDIDATE_READ_CONCURRENCY = 8;
/** Files read and handed over per batch when streaming (readWorkspace `onBatch`). */
const STREAM_WINDOW = 512;

/** One memory file read from disk (decoded, not yet parsed). */
export interface RawFile {
  readonly path: RelPath;
  readonly kind: DocKind;
  readonly text: string;
  readonly hash: string;
}

/** What the index knows of a file: its content hash and the stat key it had when hashed. */
export interface KnownFile {
  readonly hash: string;
  readonly stat?: string | undefined;
}

/** What the index recorded per path (undefined: not indexed). */
export type KnownLookup = (path: string) => KnownFile | undefined;

/** What {@link readWorkspace} returns. */
export interface WorkspaceRead {
  /** Files read now (all of them without `known`; only the new or changed ones with it). */
  readonly files: RawFile[];
  /** Path → content hash (or a `size:`/`binary:` marker) of EVERY memory file, read or not. */
  readonly hashes: Record<string, string>;
  /** Path → stat key, for files whose stat is safe to trust next time (not racy). */
  readonly stats: Record<string, string>;
  /** Memory files indexed (read or unchanged), skipped ones excluded. */
  readonly count: number;
  /** Files whose stat matched `known` and were not read. */
  readonly unchanged: number;
  readonly fileDiagnostics: Diagnostic[];
  readonly skipped: SkippedFile[];
  readonly bytes: number;
}

/**
 * Read only the memory files at `paths` (a write's checks: the few entries the index names as
 * candidates, never the whole workspace). Paths that are missing, not memory under `loaded`'s
 * layout, binary or unreadable are left out; nothing throws on user content.
 * @returns the files read, in `paths` order.
 */
export async function readMemoryFiles(fs: MemoryFs, loaded: LoadedConfig, paths: Iterable<string>): Promise<RawFile[]> {
  const list: { path: RelPath; kind: DocKind }[] = [];
  for (const p of paths) {
    const path = toRelPath(p);
    const kind = classify(path, loaded.layout);
    if (kind) list.push({ path, kind });
  }
  // A few reads at a time, not one after another: each read is several round trips to the I/O
  // threads, and one at a time a write's 40 candidates were latency-bound (issue #44).
  const read: (RawFile | undefined)[] = new Array(list.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < list.length; i = next++) {
      const { path, kind } = list[i]!;
      let data: Uint8Array | undefined;
      try {
        data = await fs.read(path);
      } catch {
        continue; // unreadable: the walk reports it as a diagnostic
      }
      if (!data) continue;
      const dec = decodeText(data);
      if (dec.problem === 'binary') continue;
      read[i] = { path, kind, text: dec.text, hash: contentHash(dec.text) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CANDIDATE_READ_CONCURRENCY, list.length) }, worker));
  return read.filter((f): f is RawFile => f !== undefined);
}

/**
 * Read every memory file and hash it (no parsing: a valid persisted index needs only the hashes).
 * Oversized and binary files are skipped with a diagnostic; the rest of the workspace still loads.
 * With `known` (what the index recorded per path), a file whose stat key equals the recorded one is
 * not read: its recorded hash is reused, so an unchanged workspace costs one directory walk.
 * `onProgress(done, total)` is called per file.
 */
/**
 * Read one file for indexing: its bytes and whether its size or mtime moved during the read (a save
 * in progress; MemoryFs.readChecked). Such a read is not trusted: the caller keeps the file's last
 * good indexed state and records no stat key, so the next pass reads it again.
 */
export async function readForIndex(
  fs: MemoryFs,
  path: RelPath,
): Promise<{ data: Uint8Array; unstable: boolean } | undefined> {
  if (fs.readChecked) {
    const r = await fs.readChecked(path);
    return r ? { data: r.bytes, unstable: r.unstable } : undefined;
  }
  const data = await fs.read(path);
  return data ? { data, unstable: false } : undefined;
}

export async function readWorkspace(
  fs: MemoryFs,
  loaded: LoadedConfig,
  options: {
    onProgress?: (done: number, total: number) => void;
    onSkip?: (path: string, reason: string) => void;
    /**
     * What the index recorded per path, or a promise of it (the index still loading): the listing and
     * the stats proceed meanwhile (the load's reads overlap the walk), the comparison waits for it.
     */
    known?: KnownLookup | Promise<KnownLookup | undefined>;
    /**
     * Stream: the files read are handed over in batches (path order, a few hundred at a time) and not
     * kept; `files` of the result is then empty. The read waits for each call before reading on.
     */
    onBatch?: (files: RawFile[]) => Promise<void>;
  } = {},
): Promise<WorkspaceRead> {
  const walkStart = Date.now();
  let known = typeof options.known === 'function' ? options.known : undefined;
  const later = typeof options.known === 'function' ? undefined : options.known;
  later?.catch(() => undefined); // handled here so a failed load is not an unhandled rejection; settle() rethrows it
  const fileDiagnostics: Diagnostic[] = [];
  const skipped: SkippedFile[] = [];
  const top = range(0, 0, 0, 0);
  /** A memory file that is there but could not be read (U60): skipped, a warning of validate and the editor. */
  const unreadable = (path: RelPath, code: string, reason: string) => {
    skipped.push({ path, code, reason });
    const message = /(not indexed|skipped)$/.test(reason) ? reason : `${reason}; not indexed`;
    fileDiagnostics.push({ path, range: top, severity: 'warning', code: DiagnosticCode.fileUnreadable, message });
  };
  const { listed, settle } = await listMemoryFiles(
    fs,
    loaded.layout,
    (p, r, u) => {
      // The walk's refusal of a memory path it cannot read (a FIFO, a broken link) is a diagnostic too.
      if (u) unreadable(p as RelPath, DiagnosticCode.fileUnreadable, r);
      options.onSkip?.(p, r);
    },
    known,
    later,
  );
  const files: RawFile[] = [];
  // Path → hash and path → stat key, collected in path order as parallel arrays and made records
  // only when read (an unchanged workspace's sync never reads them: 20,000 property inserts saved;
  // with no object per unchanged file, one-shot keyword recall at 10,000 files, 20 alternating A/B
  // calls at load ≈ 13.6: CPU 382 -> 374 ms).
  const hashes = new LazyRecord();
  const stats = new LazyRecord();
  let bytes = 0;
  let count = 0;
  let unchanged = 0;
  // File I/O runs a few dozen at a time (one at a time it was latency-bound: ~4 s for 10,000
  // files); the results are then handled in path order, so the output is deterministic.
  type Fetched = {
    st: Awaited<ReturnType<MemoryFs['stat']>>;
    data?: Uint8Array;
    unstable?: boolean;
    known?: KnownFile;
    same?: KnownFile;
    error?: unknown;
  };
  // Every listed file is stat'ed first, in one call where the fs offers it (no promise per file: an
  // unchanged file then costs its stat and a key comparison), while the index may still be loading;
  // only new or changed files are read.
  let statted: Awaited<ReturnType<MemoryFs['stat']>>[] | undefined;
  try {
    statted = await fs.statAll?.(listed);
  } catch {
    statted = undefined; // a refused path: stat path by path, each error reported for its file
  }
  const list = await settle();
  if (later) known = await later; // settled already
  const fetched: (Fetched | undefined)[] = new Array(list.length);
  // An unchanged file (its stat key is the recorded one) keeps only its stat and what the index knew.
  const sts: Fetched['st'][] = new Array(list.length);
  const same: (KnownFile | undefined)[] = new Array(list.length);
  let next = 0;
  let limit = 0;
  let fetchedCount = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= limit) return;
      const { path } = list[i]!;
      try {
        const st = statted ? statted[list[i]!.at] : await fs.stat(path);
        sts[i] = st;
        const k = known?.(path);
        // Binary files are re-read: their skip diagnostic is rebuilt from the bytes.
        if (k && st?.key !== undefined && k.stat === st.key && !k.hash.startsWith('binary:')) same[i] = k;
        else if (st && st.size > loaded.config.limits.maxFileBytes) fetched[i] = { st };
        else {
          const r = await readForIndex(fs, path);
          fetched[i] = { st, ...(r ? { data: r.data, unstable: r.unstable } : {}), ...(k ? { known: k } : {}) };
        }
      } catch (error) {
        fetched[i] = { st: undefined, error };
      }
      options.onProgress?.(++fetchedCount, list.length);
    }
  };
  const racyFrom = walkStart - RACY_MS;
  // With `onBatch`, files are read, handed over and dropped a window at a time; else in one window.
  const window = options.onBatch ? STREAM_WINDOW : Math.max(1, list.length);
  for (let from = 0; from < list.length; from += window) {
    next = from;
    limit = Math.min(list.length, from + window);
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, limit - from) }, worker));
    handle(from, limit);
    if (options.onBatch && files.length) await options.onBatch(files.splice(0));
  }
  function handle(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const { path } = list[i]!;
      const f = fetched[i] ?? { st: sts[i], same: same[i] };
      fetched[i] = undefined; // handled: its bytes are not kept
      const k = same[i];
      if (k !== undefined && sts[i]!.size <= loaded.config.limits.maxFileBytes) {
        hashes.set(path, k.hash);
        stats.set(path, k.stat!);
        bytes += sts[i]!.size;
        count++;
        unchanged++;
        continue;
      }
      try {
        if (f.error !== undefined) throw f.error;
        const st = f.st;
        // A stat taken before the walk began (prefetched) counts its racy window from when it was taken.
        const trust = st?.key !== undefined && st.mtimeMs < Math.min(racyFrom, (st.takenAt ?? walkStart) - RACY_MS);
        if (st && st.size > loaded.config.limits.maxFileBytes) {
          const reason = `file is ${st.size} bytes, over the ${loaded.config.limits.maxFileBytes}-byte cap (limits.maxFileBytes); not indexed`;
          hashes.set(path, f.same?.hash ?? `size:${st.size}:${st.mtimeMs}`);
          if (trust) stats.set(path, st.key!);
          skipped.push({ path, code: DiagnosticCode.fileTooLarge, reason });
          fileDiagnostics.push({
            path,
            range: top,
            severity: 'warning',
            code: DiagnosticCode.fileTooLarge,
            message: reason,
          });
          continue;
        }
        if (f.same) {
          hashes.set(path, f.same.hash);
          stats.set(path, f.same.stat!);
          bytes += st!.size;
          count++;
          unchanged++;
          continue;
        }
        const data = f.data;
        if (!data) continue; // vanished between list and read
        if (f.unstable && f.known) {
          // Changed while being read (a save in progress): keep the last good indexed state, record
          // no stat key so the next pass reads the file again.
          hashes.set(path, f.known.hash);
          bytes += data.length;
          count++;
          options.onSkip?.(path, 'changed while being read; keeping its last indexed state until it is stable');
          continue;
        }
        bytes += data.length;
        const dec = decodeText(data);
        if (dec.problem === 'binary') {
          const reason = 'file holds binary data (NUL bytes) though it is named .md; not indexed';
          hashes.set(path, `binary:${data.length}`);
          skipped.push({ path, code: DiagnosticCode.binaryFile, reason });
          fileDiagnostics.push({
            path,
            range: top,
            severity: 'warning',
            code: DiagnosticCode.binaryFile,
            message: reason,
          });
          continue;
        }
        if (dec.problem === 'invalid-utf8') {
          fileDiagnostics.push({
            path,
            range: top,
            severity: 'warning',
            code: DiagnosticCode.invalidUtf8,
            message: 'file is not valid UTF-8; undecodable bytes were replaced with U+FFFD',
          });
        }
        // A path known to the index was listed without its kind; it is memory under this layout.
        const kind = list[i]!.kind ?? classify(path, loaded.layout);
        if (!kind) continue;
        const hash = contentHash(dec.text);
        hashes.set(path, hash);
        // The stat was taken before the read: if the file changed in between, its key changes too.
        if (trust && !f.unstable && data.length === st!.size) stats.set(path, st!.key!);
        files.push({ path, kind, text: dec.text, hash });
        count++;
      } catch (e) {
        const reason = e instanceof MemoryError ? e.message : `unexpected error: ${(e as Error).message}`;
        unreadable(path, e instanceof MemoryError ? e.code : 'internal', reason);
        options.onSkip?.(path, reason);
      }
    }
  }
  return {
    files,
    get hashes() {
      return hashes.record();
    },
    get stats() {
      return stats.record();
    },
    count,
    unchanged,
    fileDiagnostics,
    skipped,
    bytes,
  };
}

/** Keys and values collected in order; the record is made on the first {@link record}. */
class LazyRecord {
  readonly #keys: string[] = [];
  readonly #values: string[] = [];
  #record: Record<string, string> | undefined;

  set(key: string, value: string): void {
    this.#keys.push(key);
    this.#values.push(value);
  }

  record(): Record<string, string> {
    if (this.#record) return this.#record;
    const r: Record<string, string> = {};
    for (let i = 0; i < this.#keys.length; i++) r[this.#keys[i]!] = this.#values[i]!;
    return (this.#record = r);
  }
}
