// Buffered byte I/O and the sorted merge of the keyword build runs (lexical-runs.ts): a growable
// buffer a run is encoded into, a cursor reading one region of a run front to back, a column writer
// filling one column of the merged segment from its byte offset, and a heap merge of sorted keys.
// Pure: I/O through RangedFile and the writer passed in. deps: core (ports types), indexes (lexical-segment).
import type { RangedFile } from '../../core/ports.js';
import { corrupt } from './lexical-segment.js';

/** Bytes written at byte offsets of one file. */
export interface PositionalWriter {
  writeAt(bytes: Uint8Array, position: number): void;
}

export const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8');

/** A growable little-endian byte buffer. */
export class Grow {
  buf = new Uint8Array(1 << 16);
  dv = new DataView(this.buf.buffer);
  n = 0;
  #room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + k) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
    this.dv = new DataView(b.buffer);
  }
  u32(v: number): void {
    this.#room(4);
    this.dv.setUint32(this.n, v, true);
    this.n += 4;
  }
  u16(v: number): void {
    this.#room(2);
    this.dv.setUint16(this.n, v, true);
    this.n += 2;
  }
  str(s: string): number {
    this.#room(4 + s.length * 3);
    const k = s.length ? utf8.encodeInto(s, this.buf.subarray(this.n + 4)).written : 0;
    this.dv.setUint32(this.n, k, true);
    this.n += 4 + k;
    return k;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.n);
  }
}

/** Reads one region of a run front to back through a 64 KiB buffer. */
export class Cursor {
  readonly #file: RangedFile;
  #pos: number;
  readonly #end: number;
  #buf = new Uint8Array(1 << 16);
  #dv = new DataView(this.#buf.buffer);
  #a = 0;
  #b = 0;
  constructor(file: RangedFile, from: number, to: number) {
    this.#file = file;
    this.#pos = from;
    this.#end = to;
  }
  get done(): boolean {
    return this.#a === this.#b && this.#pos >= this.#end;
  }
  /** Make `k` bytes available at `#a`. */
  #need(k: number): void {
    if (this.#b - this.#a >= k) return;
    const left = this.#b - this.#a;
    if (k > this.#buf.length) {
      const b = new Uint8Array(Math.max(k, this.#buf.length * 2));
      b.set(this.#buf.subarray(this.#a, this.#b));
      this.#buf = b;
      this.#dv = new DataView(b.buffer);
    } else this.#buf.copyWithin(0, this.#a, this.#b);
    this.#a = 0;
    this.#b = left;
    const want = Math.min(this.#buf.length - left, this.#end - this.#pos);
    const got = want > 0 ? this.#file.read(this.#buf.subarray(left, left + want), this.#pos) : 0;
    this.#pos += got;
    this.#b += got;
    if (this.#b < k) throw corrupt('build run truncated');
  }
  u32(): number {
    this.#need(4);
    const v = this.#dv.getUint32(this.#a, true);
    this.#a += 4;
    return v;
  }
  /** `k` bytes (a view valid until the next read). */
  bytes(k: number): Uint8Array {
    this.#need(k);
    const v = this.#buf.subarray(this.#a, this.#a + k);
    this.#a += k;
    return v;
  }
  /** A length-prefixed string's UTF-8 bytes (a view valid until the next read). */
  strBytes(): Uint8Array {
    return this.bytes(this.u32());
  }
  str(): string {
    const b = this.strBytes();
    return b.length ? fromUtf8.decode(b) : '';
  }
}

/** A buffered writer of one column (or string table) of the merged segment, from its byte offset. */
export class Column {
  readonly #out: PositionalWriter;
  #at: number;
  readonly #buf = new Uint8Array(1 << 16);
  readonly #dv = new DataView(this.#buf.buffer);
  #n = 0;
  constructor(out: PositionalWriter, at: number) {
    this.#out = out;
    this.#at = at;
  }
  #room(k: number): void {
    if (this.#n + k > this.#buf.length) this.flush();
  }
  i32(v: number): void {
    this.#room(4);
    this.#dv.setInt32(this.#n, v, true);
    this.#n += 4;
  }
  f64(v: number): void {
    this.#room(8);
    this.#dv.setFloat64(this.#n, v, true);
    this.#n += 8;
  }
  bytes(b: Uint8Array): void {
    if (b.length > this.#buf.length) {
      this.flush();
      this.#out.writeAt(b, this.#at);
      this.#at += b.length;
      return;
    }
    this.#room(b.length);
    this.#buf.set(b, this.#n);
    this.#n += b.length;
  }
  flush(): void {
    if (this.#n === 0) return;
    this.#out.writeAt(this.#buf.subarray(0, this.#n), this.#at);
    this.#at += this.#n;
    this.#n = 0;
  }
}

/** UTF-16 code-unit order, as the accumulator sorts. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A min-heap of (key, run) pairs; ties by run, so equal keys come out in run order. */
export class Heap {
  readonly #keys: string[] = [];
  readonly #runs: number[] = [];
  get size(): number {
    return this.#keys.length;
  }
  #less(i: number, j: number): boolean {
    const a = this.#keys[i]!;
    const b = this.#keys[j]!;
    return a < b || (a === b && this.#runs[i]! < this.#runs[j]!);
  }
  #swap(i: number, j: number): void {
    [this.#keys[i], this.#keys[j]] = [this.#keys[j]!, this.#keys[i]!];
    [this.#runs[i], this.#runs[j]] = [this.#runs[j]!, this.#runs[i]!];
  }
  push(key: string, run: number): void {
    this.#keys.push(key);
    this.#runs.push(run);
    for (let i = this.#keys.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!this.#less(i, p)) break;
      this.#swap(i, p);
      i = p;
    }
  }
  peek(): string {
    return this.#keys[0]!;
  }
  pop(): number {
    const run = this.#runs[0]!;
    const last = this.#keys.length - 1;
    this.#swap(0, last);
    this.#keys.pop();
    this.#runs.pop();
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < last && this.#less(l, m)) m = l;
      if (r < last && this.#less(r, m)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
    return run;
  }
}

/**
 * Merge every key of the runs' sorted lists in order: `key(k)` reads run k's next key (undefined at
 * its end), `each(key, runs)` gets one distinct key with the runs holding it (ascending). `each`
 * must consume those runs' entries that belong to the key (the next `key(k)` reads the next one).
 */
export function mergeKeys(
  runs: number,
  key: (k: number) => string | undefined,
  each: (key: string, holders: readonly number[]) => void,
): void {
  const heap = new Heap();
  for (let k = 0; k < runs; k++) {
    const s = key(k);
    if (s !== undefined) heap.push(s, k);
  }
  const holders: number[] = [];
  while (heap.size) {
    const s = heap.peek();
    holders.length = 0;
    while (heap.size && heap.peek() === s) holders.push(heap.pop());
    each(s, holders);
    for (const k of holders) {
      const next = key(k);
      if (next !== undefined) heap.push(next, k);
    }
  }
}
