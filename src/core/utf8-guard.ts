// The write guard for a file whose bytes are not valid UTF-8: a write that replaces a file's text
// (a link rewrite, a front-matter edit, the working state) would write U+FFFD where the file had
// bytes a decoder could not read, so it is refused; an append adds its bytes after the file's own
// (MemoryFs.writeBytesAtomic) and needs no guard (docs/bad-inputs.md R55). deps: core.
import { MemoryError } from './errors.js';
import { invalidUtf8Offset } from './text.js';

/**
 * Refuse to replace the text of `path`, whose current bytes are `bytes`, when they are not valid UTF-8.
 * @throws MemoryError `fs.not-utf8` naming the file and the byte offset (`data.path`, `data.offset`,
 *   0-based), nothing written.
 */
export function refuseRewriteOfInvalidUtf8(path: string, bytes: Uint8Array | undefined): void {
  const offset = bytes ? invalidUtf8Offset(bytes) : undefined;
  if (offset === undefined) return;
  const byte = bytes![offset];
  const shown = byte === undefined ? 'a cut-off character' : `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  throw new MemoryError(
    'fs.not-utf8',
    `refusing to rewrite ${path}: it is not valid UTF-8 (byte ${offset}: ${shown}); rewriting it would replace those bytes with U+FFFD; nothing written`,
    {
      data: { path, offset },
      hint: `convert ${path} to UTF-8 (for Latin-1 text: iconv -f latin1 -t utf-8), then retry`,
    },
  );
}
