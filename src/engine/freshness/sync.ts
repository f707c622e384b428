// Files → index states: the startup scan diffed against the indexed hashes (reconciliation), and
// watcher batches read one file at a time. The same rules as load.ts readWorkspace: oversized and
// binary files are indexed as "skipped" (a marker hash, no chunks); unreadable files are reported and
// left out. Never throws on user content. deps: core, parse, engine (load, parse-cache, index-manager).
import { DiagnosticCode } from '../../core/diagnostics.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import type { RelPath } from '../../core/paths.js';
import { RACY_MS, type FileChangeBatch, type MemoryFs } from '../../core/ports.js';
import { decodeText } from '../../core/text.js';
import { diffFiles, fileSetOf, type FileDiff } from '../../indexes/manifest/manifest-diff.js';
import { docRecords } from '../chunks/index-manager.js';
import type { FileState } from '../live/live-index.js';
import { readForIndex, type LoadedConfig, type RawFile } from '../load/load.js';
import { parseCached, type DocCache } from '../load/parse-cache.js';

function parseRaw(
  f: RawFile,
  loaded: LoadedConfig,
  cache: DocCache | undefined,
  stat?: string,
  keep = true,
): FileState {
  const doc = parseCached(f, loaded.config, cache, keep);
  return { hash: f.hash, records: docRecords(doc), ...(stat ? { stat } : {}) };
}

/** A workspace read as {@link statesOf} and {@link diffStates} take it (load.ts readWorkspace). */
export interface ReadFiles {
  readonly files: readonly RawFile[];
  readonly hashes: Readonly<Record<string, string>>;
  /** Stat keys safe to record (not racy); absent = record none. */
  readonly stats?: Readonly<Record<string, string>>;
}

/**
 * Every file of a workspace read by readWorkspace (a full read), as index states. Documents found
 * in `cache` are reused; new parses are not added to it (a full build would otherwise keep the
 * parsed documents of the whole workspace, up to the cache's bound, for nobody: a loaded index
 * starts with an empty cache too).
 */
export function statesOf(raw: ReadFiles, loaded: LoadedConfig, cache?: DocCache): Map<string, FileState> {
  const byPath = new Map(raw.files.map((f) => [f.path as string, f]));
  const out = new Map<string, FileState>();
  for (const [p, hash] of Object.entries(raw.hashes)) {
    const f = byPath.get(p);
    const stat = raw.stats?.[p];
    out.set(p, f ? parseRaw(f, loaded, cache, stat, false) : { hash, records: [], ...(stat ? { stat } : {}) });
  }
  return out;
}

/**
 * The changes that bring `indexed` to the files of `raw` (indexes/manifest/manifest-diff.ts decides what
 * changed): changed or new files parsed (only those), gone files as null, and files whose content
 * is unchanged but whose stat key is new (touched, or no longer racy) with their indexed records,
 * so the new key is recorded. Unchanged files cost nothing beyond the stat (or read) that produced
 * them; `raw.files` may hold only the files read. `diff` says which paths are which.
 */
export function diffStates(
  indexed: ReadonlyMap<string, FileState>,
  raw: ReadFiles,
  loaded: LoadedConfig,
  cache?: DocCache,
): { changes: Map<string, FileState | null>; diff: FileDiff } {
  const byPath = new Map(raw.files.map((f) => [f.path as string, f]));
  const out = new Map<string, FileState | null>();
  const diff = diffFiles(indexed, fileSetOf(raw.hashes, raw.stats), (p, change) => {
    const hash = raw.hashes[p]!;
    const stat = raw.stats?.[p];
    if (change === 'removed') out.set(p, null);
    else if (change === 'restat') out.set(p, { hash, records: indexed.get(p)!.records, ...(stat ? { stat } : {}) });
    else {
      const f = byPath.get(p);
      out.set(p, f ? parseRaw(f, loaded, cache, stat) : { hash, records: [], ...(stat ? { stat } : {}) });
    }
  });
  return { changes: out, diff };
}

/** What reading one file gave. */
export type FileRead =
  | { readonly kind: 'state'; readonly state: FileState; readonly skipped?: string }
  | { readonly kind: 'gone' }
  | { readonly kind: 'not-memory' }
  | { readonly kind: 'error'; readonly reason: string };

/** Read, hash and parse one memory file (B16: the caller reads only after the watcher saw it settle). */
async function readFileState(fs: MemoryFs, loaded: LoadedConfig, path: RelPath, cache?: DocCache): Promise<FileRead> {
  const kind = classify(path, loaded.layout);
  if (!kind) return { kind: 'not-memory' };
  try {
    const st = await fs.stat(path);
    if (!st) return { kind: 'gone' };
    if (st.isDirectory) return { kind: 'not-memory' };
    if (st.size > loaded.config.limits.maxFileBytes) {
      return {
        kind: 'state',
        state: { hash: `size:${st.size}:${st.mtimeMs}`, records: [] },
        skipped: DiagnosticCode.fileTooLarge,
      };
    }
    const read = await readForIndex(fs, path);
    if (!read) return { kind: 'gone' };
    // A save in progress: keep the last good entry (the caller's error path); its stored stat key no
    // longer matches the file, so the next pass reads it again.
    if (read.unstable)
      return { kind: 'error', reason: 'changed while being read; keeping its last indexed state until it is stable' };
    const data = read.data;
    const dec = decodeText(data);
    if (dec.problem === 'binary')
      return {
        kind: 'state',
        state: { hash: `binary:${data.length}`, records: [] },
        skipped: DiagnosticCode.binaryFile,
      };
    const raw: RawFile = { path, kind, text: dec.text, hash: contentHash(dec.text) };
    const trust = st.key !== undefined && data.length === st.size && st.mtimeMs < Date.now() - RACY_MS;
    return { kind: 'state', state: parseRaw(raw, loaded, cache, trust ? st.key : undefined) };
  } catch (e) {
    return { kind: 'error', reason: (e as Error)?.message ?? String(e) };
  }
}

/**
 * Read every path of a watcher batch. A "deleted" path whose file exists again (atomic save: unlink
 * then add) is read as a change; a created/changed path that is gone by now is a delete.
 */
export async function readBatch(
  fs: MemoryFs,
  loaded: LoadedConfig,
  batch: FileChangeBatch,
  cache: DocCache | undefined,
  onError: (path: string, reason: string) => void,
): Promise<Map<string, FileState | null>> {
  const out = new Map<string, FileState | null>();
  const paths = [...new Set([...batch.created, ...batch.changed, ...batch.deleted])].sort();
  for (const p of paths) {
    const r = await readFileState(fs, loaded, p, cache);
    if (r.kind === 'state') out.set(p, r.state);
    else if (r.kind === 'gone' || r.kind === 'not-memory') out.set(p, null);
    else onError(p, r.reason); // unreadable: keep the last good entry, report, go on (B38)
  }
  return out;
}
