// Lines around a hit, from the chunks of its file: the `contextSpan` of a result and the
// neighbouring lines the context-block packer weighs. deps: engine (types).
import type { ChunkRecord, IndexSnapshot } from '../../engine/chunks/index-manager.js';

/** Lines `n` around the evidence span, from the chunks of the same file (headings and blank lines between chunks are not chunk text). */
export function contextSpan(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  start: number,
  end: number,
  n: number,
): { startLine: number; endLine: number; text: string } {
  const lines = linesAround(snapshot, c, start, end, n);
  return {
    startLine: lines[0]?.line ?? start,
    endLine: lines[lines.length - 1]?.line ?? end,
    text: lines.map((l) => l.text).join('\n'),
  };
}

/** Chunk text lines from `start - n` to `end + n` of `c`'s file, in line order (lines no chunk holds are absent). */
export function linesAround(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  start: number,
  end: number,
  n: number,
): { line: number; text: string }[] {
  const want = Math.max(0, Math.floor(n));
  const from = Math.max(1, start - want);
  const to = end + want;
  const byLine = new Map<number, string>();
  const take = (r: ChunkRecord) =>
    r.text.split('\n').forEach((t, i) => {
      const l = r.startLine + i;
      if (l >= from && l <= to && !byLine.has(l)) byLine.set(l, t);
    });
  take(c);
  // Neighbouring chunks of the same file: ids are `path#line`, so probe the lines in the window.
  for (let l = Math.max(1, from - 10); l <= to; l++) {
    const r = snapshot.chunks.get(`${c.path}#${l}`);
    if (r && r.path === c.path) take(r);
  }
  return [...byLine.keys()].sort((a, b) => a - b).map((line) => ({ line, text: byLine.get(line)! }));
}

/** Lines probed for a neighbouring chunk's first line (blank lines between chunks). */
const NEIGHBOUR_GAP = 3;

/**
 * The chunks right before and after `c` in its file and section (same heading path), e.g. the turns
 * before and after a chat turn; ids are `path#line`. A section's first or last chunk has one.
 */
export function neighbourChunks(snapshot: IndexSnapshot, c: ChunkRecord): ChunkRecord[] {
  const same = (r: ChunkRecord | undefined): r is ChunkRecord =>
    !!r && r.id !== c.id && r.path === c.path && r.headingPath.join('\n') === c.headingPath.join('\n');
  const out: ChunkRecord[] = [];
  for (let l = c.endLine + 1; l <= c.endLine + 1 + NEIGHBOUR_GAP; l++) {
    const r = snapshot.chunks.get(`${c.path}#${l}`);
    if (same(r)) {
      out.push(r);
      break;
    }
  }
  // The chunk before ends just above `c`: probe back from a chunk's longest reach.
  for (let l = c.startLine - 1; l >= Math.max(1, c.startLine - 12); l--) {
    const r = snapshot.chunks.get(`${c.path}#${l}`);
    if (r && r.path === c.path && r.endLine < c.startLine) {
      if (same(r) && r.endLine >= c.startLine - 1 - NEIGHBOUR_GAP) out.push(r);
      break;
    }
  }
  return out;
}
