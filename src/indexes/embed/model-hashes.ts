// Remembered SHA-256 of the embedding model's files, keyed by each file's stat (size, mtime and
// ctime in ns, inode, device), the way git's index vouches for a file without reading it: a
// one-shot hybrid recall otherwise reads and hashes the 54 MB weights file on every start (~100 ms
// of CPU). A file whose stat changed, or whose timestamps are whole seconds (FAT, some network
// mounts), or that was modified less than RACY_MS before the hash was taken, is hashed again.
// Kept in the workspace's derived-state folder (one small JSON artifact); a store that cannot be
// read or written only costs the hashing. Pure: the caller passes the file system's stat (the ONNX
// adapter passes node:fs statSync with bigint times).
import { RACY_MS } from '../../core/ports.js';

/** Where the hashes are kept: the derived-state folder's artifacts (core IndexStorage fits). */
export interface ModelHashStore {
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, data: string): Promise<void>;
}

/** The artifact's name in the store. */
const ARTIFACT = 'model-hashes.json';

/** What the hashes are keyed by: a stat with nanosecond times (node:fs `statSync(p, { bigint: true })`). */
export interface ModelFileStat {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  isFile(): boolean;
}

/** Stat of an absolute path, or undefined when it does not exist. */
export type ModelFileStatFn = (path: string) => ModelFileStat | undefined;

interface Known {
  readonly key: string;
  readonly sha256: string;
}

/** Stat key of `path`, or undefined when the stat cannot vouch for the bytes (missing, coarse timestamps). */
function statKey(stat: ModelFileStatFn, path: string): { key: string; mtimeMs: number } | undefined {
  const s = stat(path);
  if (!s || !s.isFile() || s.mtimeNs % 1_000_000_000n === 0n) return undefined;
  return { key: `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`, mtimeMs: Number(s.mtimeNs / 1_000_000n) };
}

async function readKnown(store: ModelHashStore): Promise<Record<string, Known>> {
  try {
    const bytes = await store.read(ARTIFACT);
    const j = bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as { files?: unknown }) : undefined;
    const files = j?.files && typeof j.files === 'object' ? (j.files as Record<string, Partial<Known>>) : {};
    const out: Record<string, Known> = {};
    for (const [p, k] of Object.entries(files))
      if (typeof k?.key === 'string' && typeof k.sha256 === 'string' && /^[0-9a-f]{64}$/.test(k.sha256))
        out[p] = { key: k.key, sha256: k.sha256 };
    return out;
  } catch {
    return {};
  }
}

/**
 * SHA-256 hex of each of `paths` (absolute), from `store` where a file's stat still matches the one
 * remembered (by `stat`), else from `hash` (and then remembered). Without a store every file is hashed.
 */
export async function modelFileHashes(
  paths: readonly string[],
  hash: (path: string) => Promise<string>,
  store: ModelHashStore | undefined,
  stat: ModelFileStatFn,
): Promise<string[]> {
  if (!store) return Promise.all(paths.map(hash));
  const known = await readKnown(store);
  let changed = false;
  const out = await Promise.all(
    paths.map(async (p) => {
      const before = statKey(stat, p);
      const k = known[p];
      if (before && k && k.key === before.key) return k.sha256;
      const sha256 = await hash(p);
      const after = statKey(stat, p);
      if (before && after && after.key === before.key && Date.now() - after.mtimeMs > RACY_MS) {
        known[p] = { key: after.key, sha256 };
        changed = true;
      }
      return sha256;
    }),
  );
  if (changed) await store.write(ARTIFACT, JSON.stringify({ v: 1, files: known })).catch(() => undefined);
  return out;
}
