// The walk a one-shot answer can skip. After a stat walk that found every memory file exactly as
// the loaded index records it (each stat key the recorded one, nothing new, gone, read or skipped),
// the workspace's listing digest (MemoryFs.listingDigest: every entry's type, size, mtime, ctime,
// inode and path, taken at process start) is recorded beside the index with the manifest it was
// checked against. A later call whose listing digest, manifest and fingerprint are the same needs
// no walk: no entry of the workspace changed, so the walk would find the same again. This is git's
// index argument one level up: a recorded stat key is only ever one that was not racy (core/ports.ts
// RACY_MS), so any rewrite of a file since changes its mtime or ctime, and with them the digest.
// Stored as `walk-digest.json` in the index folder (written atomically; a missing, damaged or stale
// record only means a walk). deps: core (ports), engine (load, sync types).
import type { IndexStorage } from '../../core/ports.js';
import type { WorkspaceRead } from '../load/load.js';
import type { ReadFiles } from './sync.js';

/** The index folder's artifact name. */
export const WALK_DIGEST_NAME = 'walk-digest.json';

/** What a recorded digest was checked against. */
export interface WalkDigest {
  /** MemoryFs.listingDigest of the workspace. */
  readonly listing: string;
  /** SHA-256 of the manifest.json the walk's index was loaded from. */
  readonly manifest: string;
  /** The index fingerprint (settings that shape the index). */
  readonly fingerprint: string;
}

function same(a: WalkDigest, b: WalkDigest): boolean {
  return a.listing === b.listing && a.manifest === b.manifest && a.fingerprint === b.fingerprint;
}

/** The recorded digest, or undefined when there is none or it cannot be read. */
export async function readWalkDigest(storage: IndexStorage): Promise<WalkDigest | undefined> {
  try {
    const bytes = await storage.read(WALK_DIGEST_NAME);
    if (!bytes || bytes.length > 4096) return undefined;
    const j = JSON.parse(new TextDecoder().decode(bytes)) as Partial<WalkDigest> | null;
    if (typeof j?.listing !== 'string' || typeof j.manifest !== 'string' || typeof j.fingerprint !== 'string')
      return undefined;
    return { listing: j.listing, manifest: j.manifest, fingerprint: j.fingerprint };
  } catch {
    return undefined;
  }
}

/** Whether the workspace is, by `current`, the one the recorded digest vouches for. */
export async function walkDigestHolds(storage: IndexStorage, current: WalkDigest): Promise<boolean> {
  const rec = await readWalkDigest(storage);
  return rec !== undefined && same(rec, current);
}

/**
 * Record `current` after a walk that found the files as the index has them (unless it is the one
 * recorded). A failed write (read-only index folder) only means the next call walks.
 */
export async function recordWalkDigest(storage: IndexStorage, current: WalkDigest): Promise<void> {
  try {
    const rec = await readWalkDigest(storage);
    if (rec && same(rec, current)) return;
    await storage.write(WALK_DIGEST_NAME, JSON.stringify(current));
  } catch {
    /* the next call walks */
  }
}

/**
 * True when a stat walk made against the index's own keys (readWorkspace with `known`) found
 * exactly the `indexed` files, each with its recorded stat key: nothing read, skipped or gone.
 */
export function unchangedRead(raw: ReadFiles | WorkspaceRead, indexed: number): boolean {
  if (!('unchanged' in raw)) return false;
  return raw.files.length === 0 && raw.skipped.length === 0 && raw.count === raw.unchanged && raw.unchanged === indexed;
}
