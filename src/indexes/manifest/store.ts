// Persist index artifacts through the IndexStorage port: artifacts first, `manifest.json` (with the
// SHA-256 and byte length of each) last; load verifies everything before serving anything (B05, B32).
// The per-file entries travel in file tables planned and read by manifest-files.ts.
// Must not import node:fs or any npm package: all I/O goes through core/ports IndexStorage.
// deps: core (errors, hash, ports), indexes (lexical, manifest, manifest-files).
import { DISK_FULL, diskFullHint, isDiskFull } from '../../core/disk-full.js';
import { MemoryError, isMemoryError } from '../../core/errors.js';
import { sha256, sha256Of } from '../../core/hash.js';
import type { Clock, IndexStorage, RangedFile } from '../../core/ports.js';
import { LUNR_VERSION } from '../lexical/lexical.js';
import { parseManifest, type ArtifactInfo, type IndexManifest } from './manifest.js';
import { FILES_BASE, fileTables, recordTables, withTables } from './manifest-files.js';

/** Name of the manifest in the index folder; it is written last and is the commit point. */
export const MANIFEST_NAME = 'manifest.json';

/** Artifact names: one plain file name, no folders, no leading dot. */
const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Manifest fields the caller supplies; `artifacts` is computed, `createdAt`/`lunrVersion` default. */
export type ManifestFields = Omit<IndexManifest, 'artifacts' | 'createdAt' | 'lunrVersion'> & {
  readonly createdAt?: string;
  readonly lunrVersion?: string;
};

/** Artifact name → content (strings are stored as UTF-8). */
export type ArtifactData = Readonly<Record<string, string | Uint8Array>>;

/**
 * Input of {@link saveIndex}: `{ artifacts, manifest }`, or the manifest fields spread flat next
 * to `artifacts` (accepted for convenience; both mean the same).
 */
export type SaveIndexInput =
  | { readonly artifacts: ArtifactData; readonly manifest: ManifestFields }
  | (ManifestFields & { readonly artifacts: ArtifactData });

/** Options of {@link saveIndex}. */
export interface SaveIndexOptions {
  /** Source of `createdAt` when the manifest does not give one. Default: system time. */
  readonly clock?: Clock;
  /** Read every artifact back and compare checksums before writing the manifest. Default false. */
  readonly verify?: boolean;
  /**
   * Artifacts already on disk (named by the current manifest, unchanged): recorded in the new
   * manifest with these checksums and not written again. Lets a small update of a segmented index
   * rewrite only its small parts.
   */
  readonly reuse?: Readonly<Record<string, ArtifactInfo>>;
  /** Checksums the caller already computed (e.g. in a worker thread) for some artifacts in `artifacts`. */
  readonly checksums?: Readonly<Record<string, ArtifactInfo>>;
  /**
   * The manifest on disk now, when the caller knows it (it loaded or wrote it and holds the writer
   * lock): spares reading and parsing it again (at 10k files it is ~2 MB). Default: read it.
   */
  readonly previous?: IndexManifest;
  /** Called with the exact text of the manifest written (spares the caller serialising it again). */
  readonly onWritten?: (manifestText: string) => void;
}

/** Why a saved index was not served. */
export type LoadFailure = 'missing' | 'corrupt' | 'version' | 'fingerprint' | 'partial';

/** Result of {@link loadIndex}. */
export type LoadIndexResult =
  | {
      readonly ok: true;
      readonly manifest: IndexManifest;
      readonly artifacts: Readonly<Record<string, Uint8Array>>;
      /** The artifacts {@link LoadExpectation.ranged} asked for, open (the caller closes them). */
      readonly files: Readonly<Record<string, RangedFile>>;
      /**
       * Artifacts hashed in full because their stat key was not the recorded one (a copied or
       * restored folder), found intact, whose new key `manifest` now records: save it to keep them.
       */
      readonly restatted?: readonly string[];
    }
  | { readonly ok: false; readonly reason: LoadFailure; readonly detail?: string };

/** What {@link loadIndex} expects the saved index to be. */
export interface LoadExpectation {
  readonly formatVersion: number;
  readonly fingerprint: string;
  /** Default: the lunr version of this build; an index from another lunr is not served. */
  readonly lunrVersion?: string;
  /**
   * Artifacts to open for ranged reads instead of reading them whole (the float32 vectors, tens of
   * MB, of which a query re-reads a few rows): checked through the open file like any artifact and
   * handed back in `files`, which the caller then closes. Needs IndexStorage.openRanged; without
   * it they are read whole as usual.
   */
  readonly ranged?: (name: string) => boolean;
}

const encoder = new TextEncoder();

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

function writeFailed(message: string, cause: unknown): MemoryError {
  if (isMemoryError(cause)) return cause;
  return new MemoryError('index.write-failed', isDiskFull(cause) ? `${message}: ${DISK_FULL}` : message, {
    cause,
    hint: isDiskFull(cause) ? diskFullHint('the index folder') : 'check free space and permissions of the index folder',
  });
}

/** Bytes at each end of an artifact covered by {@link sampleHash}. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * SHA-256 of the first and last 64 KiB of `bytes` (all of it when shorter than 128 KiB): the cheap
 * check a load makes of an artifact whose stat key is the one recorded when it was written.
 */
export function sampleHash(bytes: Uint8Array): string {
  if (bytes.byteLength <= 2 * SAMPLE_BYTES) return sha256(bytes);
  const s = new Uint8Array(2 * SAMPLE_BYTES);
  s.set(bytes.subarray(0, SAMPLE_BYTES));
  s.set(bytes.subarray(bytes.byteLength - SAMPLE_BYTES), SAMPLE_BYTES);
  return sha256(s);
}

function isSameBytes(a: Uint8Array | undefined, info: ArtifactInfo): boolean {
  return a !== undefined && a.byteLength === info.bytes && sha256(a) === info.sha256;
}

/**
 * Save an index: remove the old manifest, write every artifact (atomically, via the port), then
 * write `manifest.json` recording each artifact's SHA-256 and byte length. A crash part-way leaves
 * no manifest, so the next load reports `missing` and the index is rebuilt. Artifacts named by the
 * previous manifest and not by this one are removed afterwards (best effort).
 * When no artifact written now replaces one the previous manifest names (fresh, content-addressed
 * names), the old manifest is NOT removed first: it stays valid until the new one atomically replaces
 * it, so concurrent readers always find a complete index (the swap is the manifest rename).
 * @returns the manifest written.
 * @throws MemoryError `index.write-failed` when any write fails (the save is then NOT complete);
 *   `internal` for an invalid artifact name.
 */
export async function saveIndex(
  storage: IndexStorage,
  input: SaveIndexInput,
  options: SaveIndexOptions = {},
): Promise<IndexManifest> {
  const { artifacts: data, ...rest } = input as {
    artifacts: ArtifactData;
    manifest?: ManifestFields;
  } & Partial<ManifestFields>;
  const fields: ManifestFields = rest.manifest ?? (rest as ManifestFields);
  checkArtifactNames(data);
  const previous = options.previous ?? (await readPrevious(storage));
  // Per-file entries go to binary file tables (a delta when the previous save's are known); an
  // index without files (the vector index) keeps its empty inline `docs`.
  const table = Object.keys(fields.docs).length > 0 ? fileTables(fields.docs, previous) : undefined;
  const all: ArtifactData = table ? { ...data, ...table.data } : data;
  const infos = reusedInfos({ ...options.reuse, ...table?.reuse }, all);
  const pending = await pendingWrites(storage, all, infos, previous, options.checksums);
  // 1. The artifacts (the old manifest removed first when one of them is overwritten).
  await writeArtifacts(storage, pending, infos, previous, options.verify);
  const manifest: IndexManifest = {
    formatVersion: fields.formatVersion,
    lunrVersion: fields.lunrVersion ?? LUNR_VERSION,
    createdAt: fields.createdAt ?? (options.clock?.now() ?? new Date()).toISOString(),
    fingerprint: fields.fingerprint,
    docs: fields.docs,
    ...(table ? { files: table.files } : {}),
    artifacts: infos,
    chunkCount: fields.chunkCount,
  };
  if (table) recordTables(manifest, table.files.base, table.delta);
  // 2. The manifest: the commit point.
  await writeManifest(storage, manifest, table !== undefined, options.onWritten);
  // 3. Clean-up of the artifacts only the previous manifest named.
  await removeStale(storage, previous, infos);
  return manifest;
}

/** A write failure of {@link saveIndex} as `index.write-failed` (a MemoryError passes unchanged). */
function saveFailed(message: string, cause: unknown): MemoryError {
  const err = writeFailed(message, cause);
  err.caller ??= 'indexes.saveIndex';
  return err;
}

/** @throws MemoryError `internal` for an artifact name that is not a plain file name or is reserved. */
function checkArtifactNames(data: ArtifactData): void {
  for (const name of Object.keys(data)) {
    if (!ARTIFACT_NAME.test(name) || name === MANIFEST_NAME || name.startsWith(FILES_BASE)) {
      throw new MemoryError('internal', `invalid index artifact name: ${name}`, { caller: 'indexes.saveIndex' });
    }
  }
}

/** The manifest on disk now, or undefined when there is none or it is unreadable (then: no clean-up). */
async function readPrevious(storage: IndexStorage): Promise<IndexManifest | undefined> {
  try {
    const old = await storage.read(MANIFEST_NAME);
    return old ? parseManifest(JSON.parse(new TextDecoder().decode(old))) : undefined;
  } catch {
    return undefined; // an unreadable old manifest only means no clean-up
  }
}

/**
 * The infos of the reused artifacts (`reuse`: name → info recorded before).
 * @throws MemoryError `internal` for a reused name that is invalid or also written now (in `all`).
 */
function reusedInfos(reuse: Readonly<Record<string, ArtifactInfo>>, all: ArtifactData): Record<string, ArtifactInfo> {
  const infos: Record<string, ArtifactInfo> = {};
  for (const [name, info] of Object.entries(reuse)) {
    if (!ARTIFACT_NAME.test(name) || name === MANIFEST_NAME || Object.hasOwn(all, name)) {
      throw new MemoryError('internal', `invalid reused index artifact: ${name}`, { caller: 'indexes.saveIndex' });
    }
    // A reused artifact keeps the stat key and sample recorded when it was written, or when a load
    // last hashed it in full (loadIndex `restatted`); never a fresh stat: a file damaged since then
    // must not be vouched for.
    infos[name] = {
      sha256: info.sha256,
      bytes: info.bytes,
      ...(info.stat !== undefined && info.sample !== undefined ? { stat: info.stat, sample: info.sample } : {}),
    };
  }
  return infos;
}

/**
 * Record each artifact of `all` (in name order) in `infos` and return the ones to write. An
 * artifact the previous manifest names with these very bytes, still the file written then (same
 * stat key), is not written again: rewriting it would mean removing the manifest first.
 */
async function pendingWrites(
  storage: IndexStorage,
  all: ArtifactData,
  infos: Record<string, ArtifactInfo>,
  previous: IndexManifest | undefined,
  checksums: SaveIndexOptions['checksums'],
): Promise<{ name: string; bytes: Uint8Array }[]> {
  const pending: { name: string; bytes: Uint8Array }[] = [];
  for (const name of Object.keys(all).sort()) {
    const bytes = bytesOf(all[name]!);
    const known = checksums?.[name];
    infos[name] =
      known && known.bytes === bytes.byteLength
        ? { sha256: known.sha256, bytes: known.bytes }
        : { sha256: sha256(bytes), bytes: bytes.byteLength };
    const old = previous && Object.hasOwn(previous.artifacts, name) ? previous.artifacts[name] : undefined;
    if (
      old?.stat !== undefined &&
      old.sample !== undefined &&
      old.sha256 === infos[name]!.sha256 &&
      old.bytes === bytes.byteLength &&
      (await storage.statKey?.(name).catch(() => undefined)) === old.stat
    ) {
      infos[name] = { sha256: old.sha256, bytes: old.bytes, stat: old.stat, sample: old.sample };
      continue;
    }
    pending.push({ name, bytes });
  }
  return pending;
}

/**
 * Write the `pending` artifacts, recording each one's stat key and sample in `infos`; the old
 * manifest is removed first when one of them replaces an artifact it names (or there is none).
 * With `verify`, read each back and compare.
 * @throws MemoryError `index.write-failed`.
 */
async function writeArtifacts(
  storage: IndexStorage,
  pending: readonly { name: string; bytes: Uint8Array }[],
  infos: Record<string, ArtifactInfo>,
  previous: IndexManifest | undefined,
  verify: boolean | undefined,
): Promise<void> {
  const overwrites = pending.some((w) => previous !== undefined && Object.hasOwn(previous.artifacts, w.name));
  try {
    if (overwrites || previous === undefined) await storage.remove(MANIFEST_NAME);
    for (const { name, bytes } of pending) {
      await storage.write(name, bytes);
      const stat = await storage.statKey?.(name);
      if (stat !== undefined) infos[name] = { ...infos[name]!, stat, sample: sampleHash(bytes) };
    }
    if (verify) {
      for (const { name } of pending) {
        if (!isSameBytes(await storage.read(name), infos[name]!)) {
          throw new MemoryError('index.write-failed', `index artifact ${name} reads back differently than written`);
        }
      }
    }
  } catch (e) {
    throw saveFailed(`could not write the index to ${storage.location}`, e);
  }
}

/**
 * Write `manifest.json` (with file tables, without the per-file `docs`) and hand its text to `onWritten`.
 * @throws MemoryError `index.write-failed`.
 */
async function writeManifest(
  storage: IndexStorage,
  manifest: IndexManifest,
  hasTables: boolean,
  onWritten: SaveIndexOptions['onWritten'],
): Promise<void> {
  try {
    // With file tables, `manifest.json` holds no per-file entries: a few hundred bytes to write and parse.
    const text = JSON.stringify(hasTables ? { ...manifest, docs: undefined } : manifest);
    await storage.write(MANIFEST_NAME, text);
    onWritten?.(text);
  } catch (e) {
    throw saveFailed(`could not write ${MANIFEST_NAME} to ${storage.location}`, e);
  }
}

/** Remove the artifacts the previous manifest named and the new one (`infos`) does not (best effort). */
async function removeStale(
  storage: IndexStorage,
  previous: IndexManifest | undefined,
  infos: Readonly<Record<string, ArtifactInfo>>,
): Promise<void> {
  for (const name of Object.keys(previous?.artifacts ?? {})) {
    if (Object.hasOwn(infos, name) || !ARTIFACT_NAME.test(name) || name === MANIFEST_NAME) continue;
    try {
      await storage.remove(name);
    } catch {
      /* a stale file is harmless: nothing names it */
    }
  }
}

/**
 * Load a saved index and verify it completely before returning anything: the manifest's shape,
 * format version, lunr version and fingerprint, then every artifact's byte length and SHA-256 —
 * or, for an artifact whose stat key (IndexStorage.statKey) is still the one recorded right after
 * it was written, its byte length and {@link sampleHash} (git trusts its index's stat data the same
 * way; any rewrite changes ctime). Never throws; storage errors count as `corrupt`.
 * @returns `{ ok: false, reason }`: `missing` (no manifest), `corrupt` (unparseable manifest, bad
 *   checksum, unreadable storage), `version` (format or lunr version differs), `fingerprint`
 *   (built by another pipeline), `partial` (an artifact is missing or has the wrong length).
 */
export async function loadIndex(storage: IndexStorage, expected: LoadExpectation): Promise<LoadIndexResult> {
  const files: Record<string, RangedFile> = {};
  const res = await loadChecked(storage, expected, files);
  if (!res.ok) for (const f of Object.values(files)) f.close();
  return res;
}

/** {@link sampleHash} of an open file's bytes. */
function sampleHashOf(file: RangedFile): string {
  const whole = file.size <= 2 * SAMPLE_BYTES;
  const buf = new Uint8Array(whole ? file.size : 2 * SAMPLE_BYTES);
  if (whole) file.read(buf, 0);
  else {
    file.read(buf.subarray(0, SAMPLE_BYTES), 0);
    file.read(buf.subarray(SAMPLE_BYTES), file.size - SAMPLE_BYTES);
  }
  return sha256(buf);
}

/** SHA-256 of an open file's bytes, read 1 MiB at a time through one buffer. */
function sha256OfFile(file: RangedFile): string {
  const buf = new Uint8Array(Math.min(1 << 20, Math.max(1, file.size)));
  return sha256Of(
    (function* () {
      for (let at = 0; at < file.size; at += buf.length) {
        const n = file.read(buf.subarray(0, Math.min(buf.length, file.size - at)), at);
        yield buf.subarray(0, n);
      }
    })(),
  );
}

async function loadChecked(
  storage: IndexStorage,
  expected: LoadExpectation,
  files: Record<string, RangedFile>,
): Promise<LoadIndexResult> {
  try {
    const raw = await storage.read(MANIFEST_NAME);
    if (raw === undefined) return { ok: false, reason: 'missing' };
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return { ok: false, reason: 'corrupt', detail: `${MANIFEST_NAME} is not valid JSON` };
    }
    const manifest = parseManifest(json);
    if (!manifest) return { ok: false, reason: 'corrupt', detail: `${MANIFEST_NAME} has an unexpected shape` };
    if (manifest.formatVersion !== expected.formatVersion) {
      return {
        ok: false,
        reason: 'version',
        detail: `format ${manifest.formatVersion}, expected ${expected.formatVersion}`,
      };
    }
    const lunrVersion = expected.lunrVersion ?? LUNR_VERSION;
    if (manifest.lunrVersion !== lunrVersion) {
      return { ok: false, reason: 'version', detail: `lunr ${manifest.lunrVersion}, expected ${lunrVersion}` };
    }
    if (manifest.fingerprint !== expected.fingerprint) return { ok: false, reason: 'fingerprint' };
    const artifacts: Record<string, Uint8Array> = {};
    const refreshed: Record<string, ArtifactInfo> = {};
    // The file tables are this module's own: decoded into `docs`, not handed to the caller.
    const own: Record<string, Uint8Array> = {};
    const isTable = (n: string) => n === manifest.files?.base || n === manifest.files?.delta;
    for (const [name, info] of Object.entries(manifest.artifacts)) {
      if (!ARTIFACT_NAME.test(name) || name === MANIFEST_NAME) {
        return { ok: false, reason: 'corrupt', detail: `invalid artifact name ${JSON.stringify(name)}` };
      }
      // Stat before the read: when the file is the one written (same size, mtime, ctime and inode
      // as recorded right after its write), its length and sample are checked instead of a
      // SHA-256 of every byte (tens of MB at 10,000 files); any other stat gets the full hash.
      const before = storage.statKey ? await storage.statKey(name) : undefined;
      const trusted = info.stat !== undefined && info.sample !== undefined && before === info.stat;
      // Hashed in full (another stat: the folder was copied, restored or moved) and found intact:
      // the stat key it kept through the hash vouches for these bytes as a write's key does, so the
      // next save records it (the manifest's info is replaced) and later loads sample again.
      const vouch = async (sample: () => string): Promise<void> => {
        if (trusted || before === undefined || (await storage.statKey!(name)) !== before) return;
        refreshed[name] = { sha256: info.sha256, bytes: info.bytes, stat: before, sample: sample() };
      };
      if (storage.openRanged && expected.ranged?.(name) && !isTable(name)) {
        const file = await storage.openRanged(name);
        if (file === undefined) return { ok: false, reason: 'partial', detail: `${name} is missing` };
        files[name] = file;
        if (file.size !== info.bytes)
          return { ok: false, reason: 'partial', detail: `${name} has ${file.size} bytes, expected ${info.bytes}` };
        if (trusted ? sampleHashOf(file) !== info.sample : sha256OfFile(file) !== info.sha256)
          return { ok: false, reason: 'corrupt', detail: `${name} checksum mismatch` };
        await vouch(() => sampleHashOf(file));
        continue;
      }
      const bytes = await storage.read(name);
      if (bytes === undefined) return { ok: false, reason: 'partial', detail: `${name} is missing` };
      if (bytes.byteLength !== info.bytes) {
        return {
          ok: false,
          reason: 'partial',
          detail: `${name} has ${bytes.byteLength} bytes, expected ${info.bytes}`,
        };
      }
      if (trusted ? sampleHash(bytes) !== info.sample : sha256(bytes) !== info.sha256)
        return { ok: false, reason: 'corrupt', detail: `${name} checksum mismatch` };
      await vouch(() => sampleHash(bytes));
      (isTable(name) ? own : artifacts)[name] = bytes;
    }
    const names = Object.keys(refreshed);
    const checked = names.length ? { ...manifest, artifacts: { ...manifest.artifacts, ...refreshed } } : manifest;
    const restat = names.length ? { restatted: names } : {};
    if (!checked.files) return { ok: true, manifest: checked, artifacts, files, ...restat };
    try {
      return { ok: true, manifest: withTables(checked, own), artifacts, files, ...restat };
    } catch (e) {
      return { ok: false, reason: 'corrupt', detail: (e as Error).message };
    }
  } catch (e) {
    return { ok: false, reason: 'corrupt', detail: `index storage unreadable: ${(e as Error)?.message ?? String(e)}` };
  }
}

/** Decode an artifact loaded by {@link loadIndex} as UTF-8 text. @throws MemoryError `index.corrupt` on invalid UTF-8. */
export function artifactText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new MemoryError('index.corrupt', 'index artifact is not valid UTF-8', { cause: e });
  }
}
