// The guards a write through the workspace file system runs on the file it replaces, before any byte
// reaches the disk: no NUL byte added to a text file, no credential added (core/write-guard.ts: secrets scanned as if an allow mark were absent), and no
// text written over a file whose bytes are not valid UTF-8 (core/utf8-guard.ts, R55).
// deps: core, platform/safe-read.
import { MemoryError } from '../core/errors.js';
import type { RelPath } from '../core/paths.js';
import { refuseInWrite } from '../core/write-guard.js';
import { refuseRewriteOfInvalidUtf8 } from '../core/utf8-guard.js';
import { readBounded } from './safe-read.js';

/**
 * Refuse a write that puts a NUL byte (U+0000) into a text file that had none: git then treats
 * the file as binary (its diff hidden from review) and the workspace reader skips it as not memory.
 * @throws MemoryError `usage`, nothing written.
 */
export function refuseNulInWrite(path: string, text: string, previous = ''): void {
  if (!text.includes('\u0000') || previous.includes('\u0000')) return;
  throw new MemoryError('usage', `refusing to write ${path}: the text holds a NUL byte (U+0000)`, {
    hint: 'remove the NUL characters; a memory file holding one is binary to git and is not indexed',
  });
}

/** The file's current bytes (undefined when new or not a readable regular file). */
async function currentBytes(abs: string, maxReadBytes: number): Promise<Uint8Array | undefined> {
  try {
    return (await readBounded(abs, abs, maxReadBytes))?.bytes;
  } catch {
    return undefined;
  }
}

/**
 * The guards of a write of `text` over the file now at `abs`: NUL bytes and secrets against its text
 * now (`carried`: the text a write copies as it stands, core/write-guard.ts), and, when the write
 * replaces the file's text (`rewrite`), bytes that are not valid UTF-8.
 * @throws MemoryError `usage` (NUL), `secret.found`, `fs.not-utf8`; nothing written.
 */
export async function guardWrite(
  abs: string,
  path: RelPath,
  text: string,
  options: {
    readonly rewrite: boolean;
    readonly maxReadBytes: number;
    readonly carried?: string | undefined;
    readonly fresh?: boolean;
  },
): Promise<void> {
  // `fresh`: the write creates a new file under a free name; the file now at `abs` is not replaced.
  const bytes = options.fresh ? undefined : await currentBytes(abs, options.maxReadBytes);
  if (options.rewrite) refuseRewriteOfInvalidUtf8(path, bytes);
  const previous = bytes ? new TextDecoder().decode(bytes) : '';
  refuseNulInWrite(path, text, previous);
  refuseInWrite(path, text, previous, options.carried);
}
