// The index manifest (written last, it is the commit point of a saved index) and the pure plan of
// what to re-index. Pure: no I/O, must not import lunr, npm packages or Node modules.
import { diffFiles, fileSetOf, type FileSet } from './manifest-diff.js';

/** Checksum of one persisted artifact. */
export interface ArtifactInfo {
  /** SHA-256 hex of the artifact's bytes. */
  readonly sha256: string;
  /** Byte length. */
  readonly bytes: number;
  /**
   * Stat key of the artifact file right after it was written (IndexStorage.statKey), and the
   * SHA-256 of its first and last 64 KiB ({@link sampleHash} in store.ts). A load that finds the
   * same stat key checks the length and this sample instead of hashing every byte again.
   */
  readonly stat?: string;
  readonly sample?: string;
}

/** Recorded state of one source file when the index was built. */
export interface ManifestDoc {
  /** core/hash.ts contentHash of the file. */
  readonly contentHash: string;
  readonly chunkCount: number;
  /**
   * Stat key of the file when it was hashed (size, mtime, ctime and inode: MemoryFs FileStat.key);
   * absent when it was racy (written too close to the walk) or unknown. A later walk that sees the same key skips the read.
   */
  readonly stat?: string;
}

/** `manifest.json`: what an index was built from and how, plus checksums of every artifact. */
export interface IndexManifest {
  /** Format of the saved index as a whole (the caller's version; compared on load). */
  readonly formatVersion: number;
  readonly lunrVersion: string;
  /** ISO-8601 time the index was saved. */
  readonly createdAt: string;
  /** Hash of everything that changes chunks or tokens: chunker/tokenizer versions, chunking config, layout. */
  readonly fingerprint: string;
  /**
   * Source file (workspace-relative POSIX path) → its state at build time. In `manifest.json` it is
   * either inline (small indexes, older saves) or, when {@link files} is set, in the binary file
   * tables that field names (indexes/manifest/file-table.ts); loadIndex fills it in from them.
   */
  readonly docs: Readonly<Record<string, ManifestDoc>>;
  /**
   * Artifacts holding {@link docs}: a base table of every file and, optionally, a delta table of the
   * files changed since the base was written (indexes/manifest/store.ts writes and reads them,
   * indexes/manifest/manifest-files.ts plans and walks them).
   */
  readonly files?: { readonly base: string; readonly delta?: string };
  /** Artifact name → checksum. */
  readonly artifacts: Readonly<Record<string, ArtifactInfo>>;
  readonly chunkCount: number;
}

/** What {@link planUpdate} says to do. Path lists are sorted. */
export interface UpdatePlan {
  /** True when the saved index cannot be reused at all; the caller re-indexes every current path. */
  readonly rebuild: boolean;
  /** Why a rebuild is needed: `missing`, `format`, `fingerprint`; undefined when `rebuild` is false. */
  readonly reason?: 'missing' | 'format' | 'fingerprint';
  /** In `current` but not in the manifest (all of `current` when there is no manifest). */
  readonly added: string[];
  /** In both, with a different content hash. */
  readonly changed: string[];
  /** In the manifest but not in `current`. */
  readonly removed: string[];
}

const HEX64 = /^[0-9a-f]{64}$/;

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Check the shape of a parsed `manifest.json`.
 * @returns the manifest, or undefined when any field is missing or of the wrong type, or when the
 *   per-file chunk counts do not add up to `chunkCount`.
 */
export function parseManifest(json: unknown): IndexManifest | undefined {
  if (!isRecord(json)) return undefined;
  const { formatVersion, lunrVersion, createdAt, fingerprint, artifacts, chunkCount, files } = json;
  if (!isCount(formatVersion) || typeof lunrVersion !== 'string' || typeof createdAt !== 'string') return undefined;
  // Per-file entries in file tables: `docs` is absent here and filled in (and summed) from the tables.
  const tabled = files !== undefined;
  if (
    tabled &&
    (!isRecord(files) ||
      json.docs !== undefined ||
      typeof files.base !== 'string' ||
      !(files.delta === undefined || typeof files.delta === 'string') ||
      !isRecord(artifacts) ||
      !Object.hasOwn(artifacts, files.base) ||
      (files.delta !== undefined && !Object.hasOwn(artifacts, files.delta)))
  )
    return undefined;
  const docs = tabled ? {} : json.docs;
  if (typeof fingerprint !== 'string' || !isCount(chunkCount) || !isRecord(docs) || !isRecord(artifacts))
    return undefined;
  let sum = 0;
  for (const d of Object.values(docs)) {
    if (!isRecord(d) || typeof d.contentHash !== 'string' || !isCount(d.chunkCount)) return undefined;
    if (d.stat !== undefined && typeof d.stat !== 'string') return undefined;
    sum += d.chunkCount;
  }
  if (!tabled && sum !== chunkCount) return undefined;
  for (const a of Object.values(artifacts)) {
    if (!isRecord(a) || typeof a.sha256 !== 'string' || !HEX64.test(a.sha256) || !isCount(a.bytes)) return undefined;
    if (a.stat !== undefined && typeof a.stat !== 'string') return undefined;
    if (a.sample !== undefined && (typeof a.sample !== 'string' || !HEX64.test(a.sample))) return undefined;
  }
  return (tabled ? { ...json, docs } : json) as unknown as IndexManifest;
}

/**
 * Compare a saved manifest with the files on disk.
 * @param manifest the saved manifest, or undefined when there is none (or it failed to load).
 * @param current path → content hash of every memory file now.
 * @param fingerprint the pipeline fingerprint the caller would build with now.
 * @param formatVersion when given, a manifest of another format version also means a rebuild
 *   (loadIndex already refuses those; this is for callers holding a manifest from elsewhere).
 * @returns `rebuild: true` when there is no manifest, its format version differs, or its
 *   fingerprint differs; the path lists are filled in every case (against the manifest when
 *   there is one), so a status line can say what changed on disk.
 */
export function planUpdate(
  manifest: IndexManifest | undefined,
  current: Readonly<Record<string, string>>,
  fingerprint: string,
  formatVersion?: number,
): UpdatePlan {
  if (!manifest)
    return { rebuild: true, reason: 'missing', added: Object.keys(current).sort(), changed: [], removed: [] };
  const d = diffFiles(manifestFiles(manifest), fileSetOf(current));
  const base = { added: d.added.sort(), changed: d.changed.sort(), removed: d.removed.sort() };
  if (formatVersion !== undefined && manifest.formatVersion !== formatVersion)
    return { rebuild: true, reason: 'format', ...base };
  if (manifest.fingerprint !== fingerprint) return { rebuild: true, reason: 'fingerprint', ...base };
  return { rebuild: false, ...base };
}

/** The per-file entries of a manifest as a file set (indexes/manifest/manifest-diff.ts; stat keys ignored). */
export function manifestFiles(manifest: IndexManifest): FileSet {
  const docs = manifest.docs;
  return {
    keys: () => Object.keys(docs),
    get: (p) => (Object.hasOwn(docs, p) ? { hash: docs[p]!.contentHash } : undefined),
  };
}
