// IndexStorage over one folder of derived state (default `<gitdir>/gitmem/`). Atomic replace for
// every artifact. Imports core and node:* only (plus write-file-atomic, on the first write).
import { closeSync, fstatSync, openSync, promises as fsp, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { STREAM_PREFIX, type IndexLock, type IndexStorage, type RangedFile } from '../core/ports.js';
import { acquireLockFile, processAlive, type LockAttempt } from './lockfile.js';
import { writeFailed } from './write-failed.js';

/** Name of the single-writer lock file in the index folder (B37). */
const WRITE_LOCK = 'write.lock';

/**
 * Create the derived-state folder with a `.gitignore` of `*`: wherever it lives (`.gitmem/` outside
 * git, a configured `index.dir` inside the work tree), git never offers it for a commit.
 */
async function ensureFolder(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  const gi = join(dir, '.gitignore');
  try {
    await fsp.writeFile(gi, '# gitmem derived state: disposable, never committed\n*\n', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * Remove the files of streamed builds whose process is gone: {@link STREAM_PREFIX}`<pid>-…` in `dir`
 * with no live process `pid` (this process's own are kept). Best effort: a file that cannot be
 * removed stays for the next sweep.
 */
async function sweepStaleStreams(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  const pidOf = new RegExp(`^${STREAM_PREFIX}(\\d+)-`);
  for (const n of names) {
    const m = pidOf.exec(n);
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    await fsp.rm(join(dir, n), { force: true, recursive: true }).catch(() => undefined);
  }
}

/**
 * Take `<dir>/<file>` (`write.lock` unless another is named; see platform/lockfile.ts; the holder also names its `purpose`). A lock
 * whose process is gone (same host) or that stayed unreadable for 2 s is stale and is broken; a lock
 * of a live process is waited for up to `waitMs`.
 */
async function acquireLock(
  dir: string,
  waitMs: number,
  purpose: string | undefined,
  file = WRITE_LOCK,
): Promise<IndexLock | undefined> {
  const path = join(dir, file);
  await ensureFolder(dir);
  let got: LockAttempt;
  try {
    got = await acquireLockFile(path, { waitMs, unreadableStaleMs: 2000, ...(purpose ? { extra: { purpose } } : {}) });
  } catch (e) {
    throw writeFailed('index.write-failed', `cannot create the index lock ${path}`, e, dir);
  }
  return got.taken ? { release: () => got.release() } : undefined;
}

function checkName(name: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
    throw new MemoryError('path.invalid', `invalid artifact name: ${name}`);
  }
}

/** A {@link RangedFile} over the open descriptor `fd` (closed by its `close`). */
function rangedFile(fd: number, name: string): RangedFile {
  let open = true;
  const failed = (e: unknown) =>
    new MemoryError('index.corrupt', `cannot read index artifact ${name}: ${(e as Error).message}`, { cause: e });
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (e) {
    closeSync(fd);
    throw failed(e);
  }
  return {
    size,
    read(target, position) {
      if (!open) throw failed(new Error('closed'));
      let done = 0;
      try {
        while (done < target.length) {
          const n = readSync(fd, target, done, target.length - done, position + done);
          if (n === 0) break;
          done += n;
        }
      } catch (e) {
        throw failed(e);
      }
      return done;
    },
    close() {
      if (!open) return;
      open = false;
      try {
        closeSync(fd);
      } catch {
        /* already gone */
      }
    },
  };
}

/** Create an {@link IndexStorage} in `dir` (created on first write). */
export function createIndexStorage(dir: string): IndexStorage {
  return {
    location: dir,
    async read(name) {
      checkName(name);
      let fh: Awaited<ReturnType<typeof fsp.open>> | undefined;
      try {
        // One read request for the whole artifact, into one buffer (no copy after): readFile reads
        // 512 KiB per thread-pool round trip, each needing the main thread, so a 40 MB artifact did not
        // load while the stat walk (synchronous) ran; one request does. Artifacts are replaced by
        // rename, never rewritten in place: the open file keeps the size its fstat gave (a shorter
        // read fails the caller's length check).
        fh = await fsp.open(join(dir, name), 'r');
        const size = (await fh.stat()).size;
        const buf = Buffer.allocUnsafeSlow(size);
        let done = 0;
        while (done < size) {
          const { bytesRead } = await fh.read(buf, done, size - done, done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return new Uint8Array(buf.buffer, buf.byteOffset, done);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new MemoryError('index.corrupt', `cannot read index artifact ${name}: ${(e as Error).message}`, {
          cause: e,
        });
      } finally {
        await fh?.close();
      }
    },
    async openRanged(name) {
      checkName(name);
      let fd: number;
      try {
        fd = openSync(join(dir, name), 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new MemoryError('index.corrupt', `cannot open index artifact ${name}: ${(e as Error).message}`, {
          cause: e,
        });
      }
      return rangedFile(fd, name);
    },
    async localFolder() {
      await ensureFolder(dir);
      await sweepStaleStreams(dir);
      return dir;
    },
    async statKey(name) {
      checkName(name);
      const s = statSync(join(dir, name), { bigint: true, throwIfNoEntry: false });
      // Whole-second timestamps (FAT, some network mounts): a rewrite within the second keeps the key.
      if (!s || !s.isFile() || s.mtimeNs % 1_000_000_000n === 0n) return undefined;
      return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
    },
    async write(name, data) {
      checkName(name);
      try {
        await ensureFolder(dir);
        // Loaded on the first write: most one-shot reads write nothing, and loading it costs a few ms.
        const { default: writeFileAtomic } = await import('write-file-atomic');
        await writeFileAtomic(join(dir, name), typeof data === 'string' ? data : Buffer.from(data), { fsync: true });
      } catch (e) {
        throw writeFailed(
          'index.write-failed',
          `cannot write index artifact ${name}`,
          e,
          dir,
          `check that ${dir} is writable`,
        );
      }
    },
    async remove(name) {
      checkName(name);
      await fsp.rm(join(dir, name), { force: true });
    },
    async append(name, text) {
      checkName(name);
      try {
        await ensureFolder(dir);
        // One write of the whole text through O_APPEND: lines other processes append never interleave within it.
        const fh = await fsp.open(join(dir, name), 'a', 0o600);
        try {
          await fh.write(text);
          return (await fh.stat()).size;
        } finally {
          await fh.close();
        }
      } catch (e) {
        throw new MemoryError(
          'index.write-failed',
          `cannot append to index artifact ${name}: ${(e as Error).message}`,
          {
            cause: e,
            hint: `check that ${dir} is writable`,
          },
        );
      }
    },
    async rename(from, to) {
      checkName(from);
      checkName(to);
      try {
        await fsp.rename(join(dir, from), join(dir, to));
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw new MemoryError('index.write-failed', `cannot rename index artifact ${from}: ${(e as Error).message}`, {
          cause: e,
        });
      }
    },
    lock(options = {}) {
      if (options.name !== undefined) checkName(options.name);
      const file = options.name === undefined ? WRITE_LOCK : `${options.name}.lock`;
      return acquireLock(dir, options.waitMs ?? 0, options.purpose, file);
    },
  };
}
