// Files of a streamed full build (issue 46) in the index folder, written by the keyword worker: the
// build runs, the chunk-record regions and the two artifacts under temporary names (`stream-<pid>-…`)
// that a save renames to their content-addressed names (those of a process that is gone are swept by
// the index storage: core/ports.ts IndexStorage.localFolder). Plain synchronous node:fs: the worker
// thread does nothing else while it writes. deps: core (errors, hash, ports), indexes (lexical-runs
// types), engine (chunk-codec types), node:fs, node:path.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { MemoryError } from '../../core/errors.js';
import { sha256, sha256Of } from '../../core/hash.js';
import type { RangedFile } from '../../core/ports.js';
import type { PositionalWriter } from '../../indexes/lexical/lexical-runs.js';
import type { ByteSpill } from '../chunks/chunk-codec.js';

const PIECE = 1 << 20;
const utf8 = new TextEncoder();

/** One artifact a streamed build wrote: its temporary name in the index folder, checksum, length and sample. */
export interface SpilledFile {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
  /** indexes/store.ts sampleHash of its bytes (a save records it with the stat key). */
  readonly sample: string;
}

function failed(what: string, e: unknown): MemoryError {
  return new MemoryError('index.write-failed', `streamed keyword build: cannot ${what}: ${(e as Error).message}`, {
    cause: e,
  });
}

/** Write all of `b` at `position` of `fd`. */
function writeAll(fd: number, b: Uint8Array, position: number): void {
  for (let done = 0; done < b.length;) done += writeSync(fd, b, done, b.length - done, position + done);
}

/** A file written in order or at byte offsets (the merged segment; the chunk-record artifact). */
export class FileOut implements PositionalWriter {
  readonly path: string;
  readonly #fd: number;
  #end = 0;
  constructor(path: string) {
    this.path = path;
    try {
      this.#fd = openSync(path, 'w', 0o600);
    } catch (e) {
      throw failed(`create ${path}`, e);
    }
  }
  writeAt(bytes: Uint8Array, position: number): void {
    writeAll(this.#fd, bytes, position);
    this.#end = Math.max(this.#end, position + bytes.length);
  }
  /** Append after the furthest byte written so far. */
  write(bytes: Uint8Array): void {
    this.writeAt(bytes, this.#end);
  }
  /** Close, with the file cut or extended to `size` bytes when given. */
  close(size?: number): void {
    try {
      if (size !== undefined) ftruncateSync(this.#fd, size);
    } finally {
      closeSync(this.#fd);
    }
  }
}

/** A {@link ByteSpill} kept in a file of the index folder, read back by `drainTo` and then removed. */
export class FileSpill implements ByteSpill {
  readonly #path: string;
  readonly #fd: number;
  readonly #buf = new Uint8Array(PIECE);
  #at = 0;
  length = 0;
  constructor(path: string) {
    this.#path = path;
    try {
      this.#fd = openSync(path, 'w+', 0o600);
    } catch (e) {
      throw failed(`create ${path}`, e);
    }
  }
  #flush(): void {
    writeAll(this.#fd, this.#buf.subarray(0, this.#at), this.length - this.#at);
    this.#at = 0;
  }
  write(text: string): number {
    if (text.length * 3 > PIECE - this.#at) {
      this.#flush();
      if (text.length * 3 > PIECE) {
        const b = utf8.encode(text);
        this.length += b.length;
        writeAll(this.#fd, b, this.length - b.length);
        return b.length;
      }
    }
    const n = utf8.encodeInto(text, this.#buf.subarray(this.#at)).written;
    this.#at += n;
    this.length += n;
    return n;
  }
  writeBytes(bytes: Uint8Array): void {
    if (bytes.length > PIECE - this.#at) this.#flush();
    if (bytes.length > PIECE) {
      this.length += bytes.length;
      writeAll(this.#fd, bytes, this.length - bytes.length);
      return;
    }
    this.#buf.set(bytes, this.#at);
    this.#at += bytes.length;
    this.length += bytes.length;
  }
  drainTo(out: (piece: Uint8Array) => void): void {
    this.#flush();
    for (let at = 0; at < this.length;) {
      const n = readSync(this.#fd, this.#buf, 0, Math.min(PIECE, this.length - at), at);
      if (n === 0) throw new MemoryError('index.write-failed', `streamed keyword build: ${this.#path} shrank`);
      out(this.#buf.subarray(0, n));
      at += n;
    }
    this.discard();
  }
  /** Close and remove the file (idempotent). */
  discard(): void {
    try {
      closeSync(this.#fd);
    } catch {
      /* closed already */
    }
    rmSync(this.#path, { force: true });
  }
}

/** Remove the file at `path` (missing is fine). */
export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

/** A {@link RangedFile} over the file at `path` (a build run). */
export function rangedAt(path: string): RangedFile {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  let open = true;
  return {
    size,
    read(target, position) {
      if (!open) throw new MemoryError('index.corrupt', `${path} read after close`);
      let done = 0;
      while (done < target.length) {
        const n = readSync(fd, target, done, target.length - done, position + done);
        if (n === 0) break;
        done += n;
      }
      return done;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** SHA-256, length and sample hash of the file at `path`, read 1 MiB at a time. */
export function describeFile(path: string, name: string): SpilledFile {
  const file = rangedAt(path);
  try {
    const buf = new Uint8Array(PIECE);
    const digest = sha256Of(
      (function* () {
        for (let at = 0; at < file.size; at += PIECE) yield buf.subarray(0, file.read(buf, at));
      })(),
    );
    const S = 64 * 1024;
    const ends = new Uint8Array(Math.min(file.size, 2 * S));
    if (file.size <= 2 * S) file.read(ends, 0);
    else {
      file.read(ends.subarray(0, S), 0);
      file.read(ends.subarray(S), file.size - S);
    }
    // indexes/store.ts sampleHash: the hash of the two 64 KiB ends (of all of it when shorter).
    return { name, sha256: digest, bytes: file.size, sample: sha256(ends) };
  } finally {
    file.close();
  }
}
