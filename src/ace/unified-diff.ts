// A unified diff (`--- a/… +++ b/… @@ … @@`) for reviewing promoted dream proposals and other
// planned edits before or after they are applied. The diff itself is core/line-diff.ts (jsdiff).
import { patchHunks, splitLines } from '../core/line-diff.js';

/**
 * Unified diff of `before` → `after` for `path` with `context` lines (default 3).
 * `before` undefined means a new file, `after` undefined a deleted one.
 * @returns '' when the texts are equal.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  if (before === after) return '';
  const hunks = patchHunks(splitLines(before ?? ''), splitLines(after ?? ''), context);
  if (hunks.length === 0) return '';
  const out: string[] = [
    `--- ${before === undefined ? '/dev/null' : `a/${path}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`,
  ];
  for (const h of hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) if (!l.startsWith('\\')) out.push(l);
  }
  return `${out.join('\n')}\n`;
}
