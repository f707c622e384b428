// String lists of a keyword segment (chunk refs, index terms, raw vocabulary): either plain arrays
// (a segment just built or merged) or a packed UTF-8 table over the bytes of a loaded segment, whose
// entries are decoded one at a time on first use. A one-shot query reads a handful of terms and the
// refs of its hits; it never decodes a whole vocabulary. Pure: no I/O, no npm packages.

/** A read-only list of strings; `sorted` lists support binary search (JavaScript string order). */
export interface StringList {
  readonly length: number;
  /** Entry `i` (0 ≤ i < length). */
  at(i: number): string;
  /** Every entry, in order (decodes all of a packed list). */
  toArray(): readonly string[];
}

export class ArrayStrings implements StringList {
  readonly #items: readonly string[];
  constructor(items: readonly string[]) {
    this.#items = items;
  }
  get length(): number {
    return this.#items.length;
  }
  at(i: number): string {
    return this.#items[i]!;
  }
  toArray(): readonly string[] {
    return this.#items;
  }
}

const utf8 = new TextDecoder('utf-8');

/**
 * Entries `bytes[offsets[i] .. offsets[i + 1])`, decoded lazily and cached. The caller checks that
 * the offsets are non-decreasing and end at `bytes.length` (lexical-codec does, once, at load).
 */
export class PackedStrings implements StringList {
  readonly #bytes: Uint8Array;
  readonly #offsets: Uint32Array;
  /** The packed bytes and offsets (a reader that checks them, lexical-codec). */
  get bytes(): Uint8Array {
    return this.#bytes;
  }
  get offsets(): Uint32Array {
    return this.#offsets;
  }
  readonly #cache: (string | undefined)[];
  #all: readonly string[] | undefined;

  constructor(bytes: Uint8Array, offsets: Uint32Array) {
    this.#bytes = bytes;
    this.#offsets = offsets;
    this.#cache = [];
  }

  get length(): number {
    return this.#offsets.length - 1;
  }

  at(i: number): string {
    let s = this.#cache[i];
    if (s === undefined) {
      const a = this.#offsets[i]!;
      const b = this.#offsets[i + 1]!;
      s = b === a ? '' : utf8.decode(this.#bytes.subarray(a, b));
      this.#cache[i] = s;
    }
    return s;
  }

  toArray(): readonly string[] {
    if (!this.#all) {
      const out = new Array<string>(this.length);
      for (let i = 0; i < out.length; i++) out[i] = this.at(i);
      this.#all = out;
    }
    return this.#all;
  }
}

/** First index whose entry is ≥ `key` in a sorted list (length when none). */
export function lowerBound(sorted: StringList, key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted.at(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of `key` in a sorted list, or undefined. */
export function sortedIndexOf(sorted: StringList, key: string): number | undefined {
  const i = lowerBound(sorted, key);
  return i < sorted.length && sorted.at(i) === key ? i : undefined;
}

/** UTF-8 bytes and offsets of `items` (the packed form of {@link PackedStrings}). */
export function packStrings(items: StringList): { bytes: Uint8Array; offsets: Uint32Array } {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets = new Uint32Array(items.length + 1);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    const b = enc.encode(items.at(i));
    parts.push(b);
    total += b.length;
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  let off = 0;
  for (const b of parts) {
    bytes.set(b, off);
    off += b.length;
  }
  return { bytes, offsets };
}
