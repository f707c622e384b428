// Heading-aware chunking of a document body into recallable pieces with exact 1-based file lines.
// Works from the line-based block scan (parse/blocks.ts), so it is linear in the text size.
// Imports only core and parse/blocks.ts; no remark, no gray-matter.
import { DEFAULT_CONFIG } from '../core/config.js';
import type { Chunk, DocKind } from '../core/document.js';
import { sha256 } from '../core/hash.js';
import { maskedLines, maskingDigest, maskSecrets } from '../core/secret-mask.js';
import type { RelPath } from '../core/paths.js';
import { LineIndex } from '../core/position.js';
import { scanBlocks } from './blocks.js';
import type { Block, KnownHeading } from './blocks.js';

/**
 * Version of the chunking rules: change it whenever chunk boundaries or texts could change for the
 * same input (4: a credential wrapped across a line end is masked in chunk text, R131). Masking's own
 * rules are covered by {@link chunkerFingerprint}.
 */
export const CHUNKER_VERSION = 'gitmem-chunk-4';

/**
 * What shapes a chunk's text for the same input: {@link CHUNKER_VERSION} and the masking digest
 * (core/secret-mask.ts), e.g. `gitmem-chunk-4+mask:0123456789ab`. Part of the index and embedding
 * fingerprints, so an index made by another chunker or other masking rules is rebuilt (R140).
 */
export function chunkerFingerprint(): string {
  return `${CHUNKER_VERSION}+mask:${maskingDigest()}`;
}

/** Size limits of one chunk. */
export interface ChunkOptions {
  /** Most source lines one chunk may span (default 5). */
  readonly maxLines: number;
  /** Most UTF-16 code units in one chunk's text (default 1200); longer lines are hard-split. */
  readonly maxChars: number;
}

const DEFAULT_CHUNK_OPTIONS: ChunkOptions = DEFAULT_CONFIG.chunking;

/** Input of {@link chunkDocument}. */
export interface ChunkInput {
  readonly path: RelPath;
  readonly kind: DocKind;
  /** Text without BOM (as the editor shows it). */
  readonly text: string;
  /** Reuse an index already built for `text`. */
  readonly lines?: LineIndex;
  /** 0-based first body line (after the front-matter block). */
  readonly bodyStartLine?: number;
  /** Headings from the full parser (see {@link ScanOptions.headings}); omitted → detected by the scanner. */
  readonly headings?: readonly KnownHeading[];
  /** Blocks already scanned for this text (then `bodyStartLine` and `headings` are not used). */
  readonly blocks?: readonly Block[];
  readonly options?: Partial<ChunkOptions>;
}

/** @returns options with defaults applied and clamped to sane minimums. */
export function resolveChunkOptions(o: Partial<ChunkOptions> | undefined): ChunkOptions {
  const lines = Number.isFinite(o?.maxLines) ? Math.floor(o!.maxLines!) : DEFAULT_CHUNK_OPTIONS.maxLines;
  const chars = Number.isFinite(o?.maxChars) ? Math.floor(o!.maxChars!) : DEFAULT_CHUNK_OPTIONS.maxChars;
  return { maxLines: Math.max(1, lines), maxChars: Math.max(16, chars) };
}

function isBlankLine(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Cut one over-long line into pieces of at most `max` code units, preferring to cut after a blank
 * in the second half of the window and never between the two halves of a surrogate pair.
 */
export function hardSplit(line: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (line.length - start > max) {
    let cut = start + max;
    for (let k = cut; k > start + (max >> 1); k--) {
      const c = line.charCodeAt(k - 1);
      if (c === 32 || c === 9) {
        cut = k;
        break;
      }
    }
    const prev = line.charCodeAt(cut - 1);
    if (prev >= 0xd800 && prev <= 0xdbff && cut - 1 > start) cut--;
    out.push(line.slice(start, cut));
    start = cut;
  }
  out.push(line.slice(start));
  return out;
}

/**
 * Chunk a document body. Rules: a chunk never crosses a heading; consecutive items of one list
 * are grouped while the group spans ≤ maxLines lines and ≤ maxChars characters; every other block
 * is its own chunk, split into ≤ maxLines-line pieces; a line longer than maxChars is hard-split
 * (pieces share the line number, ids get `-2`, `-3`…); the front-matter, headings, blank lines and
 * bare HTML comments are never chunk content. Secrets are masked (core/secret-mask.ts) in the chunk
 * texts and heading paths, line for line before any split, so no chunk, index or embedding holds one
 * and line numbers stay the file's.
 */
export function chunkDocument(input: ChunkInput): Chunk[] {
  const opts = resolveChunkOptions(input.options);
  const lines = input.lines ?? new LineIndex(input.text);
  const blocks =
    input.blocks ??
    scanBlocks(lines, { startLine: input.bodyStartLine ?? 0, ...(input.headings ? { headings: input.headings } : {}) });
  const chunks: Chunk[] = [];
  // The one place file text becomes chunk text: lines holding a secret are read masked.
  const masked = maskedLines(input.text);
  const lineText = masked.size ? (l: number) => masked.get(l) ?? lines.lineText(l) : (l: number) => lines.lineText(l);
  const used = new Map<number, number>();
  const stack: { depth: number; text: string }[] = [];
  let headingPath: readonly string[] = [];

  const emit = (startLine0: number, endLine0: number, text: string): void => {
    const startLine = startLine0 + 1;
    const seen = used.get(startLine) ?? 0;
    used.set(startLine, seen + 1);
    chunks.push({
      id: seen === 0 ? `${input.path}#${startLine}` : `${input.path}#${startLine}-${seen + 1}`,
      path: input.path,
      kind: input.kind,
      startLine,
      endLine: endLine0 + 1,
      headingPath,
      text,
      hash: sha256(text),
    });
  };

  /** Emit lines [from, to] (0-based) as one or more pieces within the limits. */
  const emitSpan = (from: number, to: number): void => {
    let cur: string[] = [];
    let curStart = -1;
    let curChars = 0;
    let lastContent = -1;
    const flush = (): void => {
      if (curStart < 0) return;
      // Trailing blank lines are not content.
      const keep = lastContent - curStart + 1;
      if (keep > 0) emit(curStart, lastContent, cur.slice(0, keep).join('\n'));
      cur = [];
      curStart = -1;
      curChars = 0;
      lastContent = -1;
    };
    for (let l = from; l <= to; l++) {
      const s = lineText(l);
      const blank = isBlankLine(s);
      if (curStart < 0 && blank) continue;
      if (s.length > opts.maxChars) {
        flush();
        for (const piece of hardSplit(s, opts.maxChars)) emit(l, l, piece);
        continue;
      }
      if (curStart >= 0 && (l - curStart + 1 > opts.maxLines || curChars + 1 + s.length > opts.maxChars)) flush();
      if (curStart < 0) {
        if (blank) continue;
        curStart = l;
        cur = [s];
        curChars = s.length;
      } else {
        cur.push(s);
        curChars += 1 + s.length;
      }
      if (!blank) lastContent = l;
    }
    flush();
  };

  /** Length of the text of lines [from, to] joined by \n, or Infinity once past `limit`. */
  const spanChars = (from: number, to: number, limit: number): number => {
    let total = -1;
    for (let l = from; l <= to; l++) {
      total += 1 + (lines.lineEnd(l) - lines.offsetAt({ line: l, character: 0 }));
      if (total > limit) return Infinity;
    }
    return total;
  };

  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    switch (block.type) {
      case 'heading': {
        const depth = block.depth ?? 1;
        while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
        stack.push({ depth, text: maskSecrets(block.text ?? '') });
        headingPath = stack.map((h) => h.text);
        // A heading whose section holds no content (`## 09:00 Deployed the service` followed by the
        // next heading, or a file that is only a heading) is itself the memory: make it a chunk.
        let empty = true;
        for (let n = b + 1; n < blocks.length; n++) {
          const next = blocks[n]!;
          if (next.type === 'heading') {
            if ((next.depth ?? 1) <= depth) break;
            continue;
          }
          if (next.type === 'comment' || next.type === 'thematic-break') continue;
          empty = false;
          break;
        }
        if (empty) emitSpan(block.startLine, block.endLine);
        break;
      }
      case 'comment':
      case 'thematic-break':
        break;
      case 'list-item': {
        // Group consecutive items of the same list while the group fits.
        const groupStart = block.startLine;
        let groupEnd = block.endLine;
        const list = block.list;
        const fits = (from: number, to: number): boolean =>
          to - from + 1 <= opts.maxLines && spanChars(from, to, opts.maxChars) <= opts.maxChars;
        if (!fits(groupStart, groupEnd)) {
          emitSpan(groupStart, groupEnd);
          break;
        }
        while (b + 1 < blocks.length) {
          const next = blocks[b + 1]!;
          if (next.type !== 'list-item' || next.list !== list) break;
          if (!fits(groupStart, next.endLine)) break;
          groupEnd = next.endLine;
          b++;
        }
        emitSpan(groupStart, groupEnd);
        break;
      }
      default:
        emitSpan(block.startLine, block.endLine);
    }
  }
  return chunks;
}
