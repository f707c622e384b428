// How the vectors lie in the index folder: under the `vectors-` prefix with their own manifest, in
// two artifact sets that saves alternate between (a kill mid-save leaves the last checkpoint whole).
// engine/vectors/semantic.ts saves through it, reads a verified load's set back into a VectorTable and
// records the stat keys a load vouched for. deps: core (errors, ports), indexes (store, manifest, vector).
import { MemoryError } from '../../core/errors.js';
import type { IndexStorage } from '../../core/ports.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import { MANIFEST_NAME, saveIndex, type LoadIndexResult } from '../../indexes/manifest/store.js';
import { VectorTable } from '../../indexes/vector/vector.js';

/** Bump when the persisted vector artifacts change shape. */
export const VECTOR_FORMAT_VERSION = 1;

/** IndexStorage view that prefixes every artifact name (vectors keep their own manifest). */
export function prefixedStorage(storage: IndexStorage, prefix: string): IndexStorage {
  return {
    location: storage.location,
    read: (n) => storage.read(prefix + n),
    ...(storage.openRanged ? { openRanged: (n: string) => storage.openRanged!(prefix + n) } : {}),
    // With stat keys a load checks an unchanged vector file by its length and sample (loadIndex),
    // not a SHA-256 of all of it (73 MB at 50k chunks).
    ...(storage.statKey ? { statKey: (n: string) => storage.statKey!(prefix + n) } : {}),
    write: (n, d) => storage.write(prefix + n, d),
    remove: (n) => storage.remove(prefix + n),
  };
}

/**
 * The two artifact sets the vectors alternate between: a save writes the set the manifest does not
 * name, then replaces the manifest (one atomic write), so a process killed in the middle of a save
 * leaves the previous checkpoint whole. `a` keeps the names of earlier versions.
 */
export const VECTOR_SETS = {
  a: { vectors: 'vectors.f32', ids: 'vectors.ids.json' },
  b: { vectors: 'vectors-b.f32', ids: 'vectors-b.ids.json' },
} as const;

export type VectorSet = keyof typeof VECTOR_SETS;

/** The set vectors-manifest.json names now, or undefined when there is none (or it is unreadable). */
async function setOnDisk(storage: IndexStorage): Promise<VectorSet | undefined> {
  try {
    const raw = await storage.read(MANIFEST_NAME);
    if (!raw) return undefined;
    const m = JSON.parse(new TextDecoder().decode(raw)) as Pick<IndexManifest, 'artifacts'>;
    return VECTOR_SETS.b.ids in m.artifacts ? 'b' : 'a';
  } catch {
    return undefined;
  }
}

/**
 * Write `ser` as the set the manifest on disk does not name (`saved`: the set this process saved
 * last, when the manifest is unreadable), manifest last. Run under the writer lock: another process
 * may have saved since this one did. @returns the set written.
 */
export async function writeVectorSet(
  storage: IndexStorage,
  fingerprint: string,
  ser: ReturnType<VectorTable['serialize']>,
  saved: VectorSet | undefined,
): Promise<VectorSet> {
  const set = ((await setOnDisk(storage)) ?? saved) === 'a' ? 'b' : 'a';
  const names = VECTOR_SETS[set];
  await saveIndex(storage, {
    formatVersion: VECTOR_FORMAT_VERSION,
    fingerprint,
    // The manifest's docs/chunkCount describe source files; vectors are keyed by embedding key
    // instead (their count is the length of the ids file), so both stay empty here.
    docs: {},
    chunkCount: 0,
    artifacts: { [names.vectors]: ser.vectors, [names.ids]: JSON.stringify(ser.ids) },
  });
  return set;
}

/**
 * The table of a verified vector load: the set its manifest names, the float32 vectors from their
 * open file (ranged reads) when it was opened, else from the bytes read. The other open files are
 * closed; the vectors' file too when the set cannot be read.
 * @throws MemoryError `index.corrupt` when a file of the set is missing; a JSON or table error as is.
 */
export function readVectorSet(
  res: Extract<LoadIndexResult, { ok: true }>,
  dims: number,
): { table: VectorTable; set: VectorSet } {
  const set = res.artifacts[VECTOR_SETS.b.ids] ? 'b' : 'a';
  const names = VECTOR_SETS[set];
  const file = res.files[names.vectors];
  for (const [name, f] of Object.entries(res.files)) if (name !== names.vectors) f.close();
  try {
    const idsBytes = res.artifacts[names.ids];
    const bytes = res.artifacts[names.vectors];
    if ((!bytes && !file) || !idsBytes)
      throw new MemoryError('index.corrupt', `${names.vectors} or ${names.ids} missing`);
    const ids = JSON.parse(new TextDecoder().decode(idsBytes)) as unknown[];
    const table = file
      ? VectorTable.fromFile(file, ids, dims)
      : VectorTable.deserialize({ vectors: bytes!, ids }, dims);
    return { table, set };
  } catch (e) {
    file?.close();
    throw e;
  }
}

/**
 * Record the stat keys a load kept through a full hash (a copied or restored folder, loadIndex
 * `restatted`), or every later load hashes the vector file in full again (14 MB at 10k files).
 * Only the manifest is written: the artifacts are reused as they are, and a manifest another
 * process saved since the load is left alone. Runs under `underLock` (the index writer lock).
 */
export async function recordVectorKeys(
  storage: IndexStorage,
  loaded: IndexManifest,
  underLock: (save: () => Promise<void>) => Promise<boolean>,
): Promise<void> {
  const shape = (m: Pick<IndexManifest, 'createdAt' | 'artifacts'>) =>
    JSON.stringify([m.createdAt, Object.entries(m.artifacts).map(([n, a]) => [n, a.sha256, a.bytes])]);
  const { formatVersion, lunrVersion, fingerprint, createdAt, docs, chunkCount } = loaded;
  const fields = { formatVersion, lunrVersion, fingerprint, createdAt, docs, chunkCount, artifacts: {} };
  await underLock(async () => {
    const now = await storage.read(MANIFEST_NAME);
    if (!now || shape(JSON.parse(new TextDecoder().decode(now)) as IndexManifest) !== shape(loaded)) return;
    await saveIndex(storage, fields, { reuse: loaded.artifacts, previous: loaded });
  });
}
