// Line diffs, the one owner of jsdiff (`diff`, Myers' O(ND) algorithm): the line operations that
// secret scans and memory diffs read, and unified patches for reviewing planned edits. Bounded:
// past MAX_EDIT_LENGTH edits jsdiff gives up and callers get `undefined` (a total rewrite).
// Pure (jsdiff does no I/O).
import { diffArrays, structuredPatch } from 'diff';

/** Most edits a diff may need before it is treated as a total rewrite (bounds the time). */
export const MAX_EDIT_LENGTH = 4000;

/** One line of a diff: kept (' '), removed ('-') or added ('+'). */
export interface LineOp {
  readonly t: ' ' | '-' | '+';
  readonly s: string;
}

/** Text → lines: CRLF and LF alike, a leading BOM dropped, no empty last line for a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** @returns the line operations turning `a` into `b`, or undefined past {@link MAX_EDIT_LENGTH} edits. */
export function diffLineOps(a: readonly string[], b: readonly string[]): LineOp[] | undefined {
  const parts = diffArrays(a as string[], b as string[], { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return undefined;
  const ops: LineOp[] = [];
  for (const p of parts) {
    const t = p.added ? '+' : p.removed ? '-' : ' ';
    for (const s of p.value) ops.push({ t, s });
  }
  return ops;
}

/** One hunk of a unified patch: 1-based starts (0 for an empty side) and the prefixed lines. */
export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/**
 * Hunks of a unified patch `a` → `b` with `context` lines around each change.
 * @returns [] when equal; one all-removed/all-added hunk when the diff exceeds the edit bound.
 */
export function patchHunks(a: readonly string[], b: readonly string[], context: number): PatchHunk[] {
  const text = (lines: readonly string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
  const patch = structuredPatch('a', 'b', text(a), text(b), '', '', { context, maxEditLength: MAX_EDIT_LENGTH });
  if (!patch) {
    return [
      {
        oldStart: a.length ? 1 : 0,
        oldLines: a.length,
        newStart: b.length ? 1 : 0,
        newLines: b.length,
        lines: [...a.map((s) => `-${s}`), ...b.map((s) => `+${s}`)],
      },
    ];
  }
  return patch.hunks.map((h) => ({
    oldStart: h.oldLines === 0 ? h.oldStart - 1 : h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newLines === 0 ? h.newStart - 1 : h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}
