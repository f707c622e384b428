// The MemoryError for a file system write that failed: a full disk is named as such, with the hint
// to free space (core/disk-full.ts), every other failure keeps the system's message. One place for
// node-fs.ts and index-storage.ts. deps: core.
import { DISK_FULL, diskFullHint, isDiskFull } from '../core/disk-full.js';
import { MemoryError, type MemoryErrorCode } from '../core/errors.js';

/**
 * @param code `fs.write-failed` (memory files) or `index.write-failed` (derived state).
 * @param what what failed, e.g. `cannot write memory/MEMORY.md`.
 * @param e the node error.
 * @param folder the absolute folder written to (named in a full disk's hint).
 * @param hint the hint for any other failure.
 */
export function writeFailed(
  code: Extract<MemoryErrorCode, 'fs.write-failed' | 'index.write-failed'>,
  what: string,
  e: unknown,
  folder: string,
  hint?: string,
): MemoryError {
  if (isDiskFull(e))
    return new MemoryError(code, `${what}: ${DISK_FULL}`, {
      cause: e,
      hint: diskFullHint(folder),
      data: { diskFull: true },
    });
  return new MemoryError(code, `${what}: ${(e as Error)?.message ?? String(e)}`, {
    cause: e,
    ...(hint ? { hint } : {}),
  });
}
