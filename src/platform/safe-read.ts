// Bounded reads of workspace files: the file type and size are checked on the open handle (fstat)
// before a byte is read, and no read goes past a cap. A FIFO, socket or device named `.md`, or a
// symlink to /dev/zero, is refused instead of blocking or growing without end. Imports core, node:*.
import { constants, promises as fsp, type Stats } from 'node:fs';
import { MemoryError } from '../core/errors.js';

/** Default cap of one read, in bytes (config `limits.maxFileBytes` is checked separately, lower). */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/** What kind of non-regular file `st` is, in words, or undefined for a regular file. */
export function nonRegularKind(
  st: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

export interface BoundedRead {
  readonly bytes: Uint8Array;
  /** fstat before the read. */
  readonly size: number;
  readonly mtimeMs: number;
  /** True when size or mtime differed after the read (the file was being written). */
  readonly unstable: boolean;
}

/**
 * Read the regular file `abs` (symlinks followed) with at most `maxBytes` bytes.
 * `shown` is the path used in messages.
 * @returns undefined when the file does not exist.
 * @throws MemoryError `fs.not-regular` (FIFO, socket, device, folder), `fs.too-large` (over
 *   `maxBytes`, or it grew past it while read), `fs.read-failed` (other I/O errors).
 */
export async function readBounded(
  abs: string,
  shown: string,
  maxBytes = DEFAULT_MAX_READ_BYTES,
): Promise<BoundedRead | undefined> {
  let fh: fsp.FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not wait; it has no effect on regular files.
    fh = await fsp.open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ENXIO' || code === 'EOPNOTSUPP')
      throw new MemoryError('fs.not-regular', `${shown} is a socket, not a file; skipped`, { data: { path: shown } });
    if (code === 'EISDIR')
      throw new MemoryError('fs.not-regular', `${shown} is a folder, not a file`, { data: { path: shown } });
    throw new MemoryError('fs.read-failed', `cannot read ${shown}: ${code ?? String(e)}`, { cause: e });
  }
  try {
    const before = await fh.stat();
    const kind = nonRegularKind(before);
    if (kind)
      throw new MemoryError('fs.not-regular', `${shown} is ${kind}, not a file; skipped`, { data: { path: shown } });
    if (before.size > maxBytes) {
      throw new MemoryError(
        'fs.too-large',
        `${shown} is ${before.size} bytes, over the ${maxBytes}-byte read cap; skipped`,
        {
          data: { path: shown, size: before.size },
        },
      );
    }
    // Read at most maxBytes + 1: one byte more tells a file that grew past the cap while read.
    const cap = maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.min(cap, Math.max(before.size + 1, 4096)));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.allocUnsafe(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > maxBytes) {
      throw new MemoryError(
        'fs.too-large',
        `${shown} grew past the ${maxBytes}-byte read cap while it was read; skipped`,
        {
          data: { path: shown },
        },
      );
    }
    const after = await fh.stat();
    const unstable = after.size !== before.size || after.mtimeMs !== before.mtimeMs || n !== before.size;
    return {
      bytes: new Uint8Array(buf.buffer, buf.byteOffset, n),
      size: before.size,
      mtimeMs: before.mtimeMs,
      unstable,
    };
  } catch (e) {
    if (e instanceof MemoryError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR')
      throw new MemoryError('fs.not-regular', `${shown} is a folder, not a file`, { data: { path: shown } });
    throw new MemoryError('fs.read-failed', `cannot read ${shown}: ${code ?? String(e)}`, { cause: e });
  } finally {
    await fh.close().catch(() => undefined);
  }
}
