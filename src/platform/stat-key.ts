// The stat of a memory file as the freshness walk records it: size, mtime and a key exact to the bit
// (size, mtime, ctime, inode), taken with one synchronous stat. Imports core and node:fs only.
import { statSync } from 'node:fs';
import type { FileStat } from '../core/ports.js';

/** Scratch for {@link statKey}: the four numbers of a key as float64 bits, read as 32-bit words. */
const keyNumbers = new Float64Array(4);
const keyWords = new Uint32Array(keyNumbers.buffer);

/**
 * The stat key of a file: its size, mtime, ctime (ms, as node:fs gives them) and inode, exact to the
 * bit, as 20 UTF-16 code units of 15 bits each (offset by 0x100: never a control character or a
 * surrogate, so the key survives the UTF-8 file table unchanged). Building it costs a few array
 * writes and one String.fromCharCode. Measured at 10,000 files (stat loop alone, 6 runs, load ≈ 10):
 * the decimal `size:mtimeNs:ctimeNs:inode` key of a bigint stat took 72 ms CPU, the same four
 * numbers of a number stat as a decimal template string 68 ms (number → string conversions are most
 * of it), this key 54 ms, the stat calls without any key 46 ms.
 */
function statKey(size: number, mtimeMs: number, ctimeMs: number, ino: number): string {
  keyNumbers[0] = size;
  keyNumbers[1] = mtimeMs;
  keyNumbers[2] = ctimeMs;
  keyNumbers[3] = ino;
  const u = keyWords;
  const o = 0x100;
  const c = String.fromCharCode;
  return c(
    o + (u[0]! & 0x7fff),
    o + ((u[0]! >>> 15) & 0x7fff),
    o + ((u[0]! >>> 30) | ((u[1]! & 0x1fff) << 2)),
    o + ((u[1]! >>> 13) & 0x7fff),
    o + (u[1]! >>> 28),
    o + (u[2]! & 0x7fff),
    o + ((u[2]! >>> 15) & 0x7fff),
    o + ((u[2]! >>> 30) | ((u[3]! & 0x1fff) << 2)),
    o + ((u[3]! >>> 13) & 0x7fff),
    o + (u[3]! >>> 28),
    o + (u[4]! & 0x7fff),
    o + ((u[4]! >>> 15) & 0x7fff),
    o + ((u[4]! >>> 30) | ((u[5]! & 0x1fff) << 2)),
    o + ((u[5]! >>> 13) & 0x7fff),
    o + (u[5]! >>> 28),
    o + (u[6]! & 0x7fff),
    o + ((u[6]! >>> 15) & 0x7fff),
    o + ((u[6]! >>> 30) | ((u[7]! & 0x1fff) << 2)),
    o + ((u[7]! >>> 13) & 0x7fff),
    o + (u[7]! >>> 28),
  );
}

/**
 * The {@link FileStat} of an absolute path (undefined when missing or unreadable). statSync, not
 * fsp.stat: the freshness walk stats every file, and one promise stat is a round trip through the
 * libuv thread pool. On a loaded 2-core machine those hand-offs, not the syscalls, were the largest
 * cost of a one-shot recall (3,000 files: ~140 ms of 1.2 s). Measured again at 10,000 files and not
 * kept: callback fs.stat with 16-256 in flight kept the main thread busy 105-165 ms against 60-75 ms
 * for this loop; a worker thread taking the stats during the walk (batches of 1,000) made the call
 * slower on a loaded 2-core machine (P50 404 -> 455 ms, CPU 366 -> 436 ms: the worker's start-up
 * costs more than the stats it takes over); yielding to finished I/O every 1,000 stats gained
 * nothing (the call is idle ~6 ms in all, so one thread has nothing to overlap).
 * A number stat, not a bigint one: a BigIntStats makes 18 BigInts and four Dates per file. Its
 * times are float64 milliseconds (sub-microsecond steps at today's dates), not nanoseconds: a file
 * rewritten after its key was recorded gets a ctime at least the racy window (core/ports.ts
 * RACY_MS) later, which no float64 rounding hides, so no change goes unseen. Keys recorded in the
 * older decimal form match none of these: each such file is read and hashed once more, found
 * unchanged, and its new key saved.
 */
export function statAt(abs: string): FileStat | undefined {
  try {
    const s = statSync(abs, { throwIfNoEntry: false });
    if (!s) return undefined;
    return fileStatOf(s.size, s.mtimeMs, s.ctimeMs, s.ino, s.isDirectory());
  } catch {
    return undefined;
  }
}

/**
 * The {@link FileStat} of four stat numbers as node:fs gives them (size in bytes, mtime and ctime in
 * ms, inode), from whichever stat took them (statSync here, find's records in platform/stat-prefetch.ts).
 * `takenAt`: when the stat was taken (epoch ms), for a stat taken before the call that returns it.
 */
export function fileStatOf(
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  ino: number,
  isDirectory: boolean,
  takenAt?: number,
): FileStat {
  const key = statKey(size, mtimeMs, ctimeMs, ino);
  return takenAt === undefined ? { size, mtimeMs, isDirectory, key } : { size, mtimeMs, isDirectory, key, takenAt };
}
