// LSP-shaped positions (0-based line, UTF-16 character) and a line index for offset ↔ position.
// Line breaks are \r\n, \n or \r; a position never points between \r and \n. Pure; no imports.

/** 0-based line and UTF-16 code-unit column, as in LSP. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** Half-open range [start, end) of {@link Position}s. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** @returns a {@link Range} from four numbers. */
export function range(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

/** Offset ↔ position conversion over one text (the text the editor shows: no BOM). */
export class LineIndex {
  readonly #text: string;
  /** Offset of the first character of each line. */
  readonly #starts: number[];

  constructor(text: string) {
    this.#text = text;
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10) {
        starts.push(i + 1);
      }
    }
    this.#starts = starts;
  }

  /** Number of lines (a trailing newline opens one more, empty line). */
  get lineCount(): number {
    return this.#starts.length;
  }

  /** Offset of the end of `line`'s content, before its line break. */
  lineEnd(line: number): number {
    const l = Math.max(0, Math.min(line, this.#starts.length - 1));
    const next = l + 1 < this.#starts.length ? this.#starts[l + 1]! : this.#text.length;
    let end = next;
    if (end > this.#starts[l]! && this.#text.charCodeAt(end - 1) === 10) end--;
    if (end > this.#starts[l]! && this.#text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** @returns the position of `offset`, clamped into the text; never between \r and \n. */
  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(Math.floor(offset), this.#text.length));
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    const end = this.lineEnd(lo);
    return { line: lo, character: Math.min(o, end) - this.#starts[lo]! };
  }

  /** @returns the offset of `pos`, clamped: columns past the end of a line stay on that line. */
  offsetAt(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.#starts.length) return this.#text.length;
    const start = this.#starts[pos.line]!;
    return Math.min(start + Math.max(0, pos.character), this.lineEnd(pos.line));
  }

  /** Text of `line` without its line break. */
  lineText(line: number): string {
    if (line < 0 || line >= this.#starts.length) return '';
    return this.#text.slice(this.#starts[line]!, this.lineEnd(line));
  }

  /** @returns the {@link Range} covering offsets [start, end). */
  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}
