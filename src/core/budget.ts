// The always-loaded budget: where a host that reads only the first `maxLines` lines or `maxBytes`
// UTF-8 bytes of a file (MEMORY.md at session start) cuts it. Pure; imports nothing.

/** A host's load limits (config `load`). */
export interface LoadBudget {
  readonly maxLines: number;
  readonly maxBytes: number;
}

/** Where a file is cut, and what is dropped. Lines are 0-based here (1-based in messages). */
export interface LoadCut {
  /** First line (0-based) that is not loaded whole. */
  readonly line: number;
  /** Which limit cuts first. */
  readonly by: 'lines' | 'bytes';
  readonly totalLines: number;
  readonly totalBytes: number;
  /** Lines from `line` to the end (the cut line counts as dropped). */
  readonly droppedLines: number;
  /** UTF-8 bytes from the start of `line` to the end. */
  readonly droppedBytes: number;
}

/**
 * @returns where `text` passes `budget`, or undefined when all of it is loaded. A line counts with
 * its line break; a final line break does not start another line.
 */
export function loadCut(text: string, budget: LoadBudget): LoadCut | undefined {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const sizes = lines.map(
    (l, i) => Buffer.byteLength(l, 'utf8') + (i < lines.length - 1 || text.endsWith('\n') ? 1 : 0),
  );
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    const byLines = i >= budget.maxLines;
    const byBytes = bytes + sizes[i]! > budget.maxBytes;
    if (byLines || byBytes) {
      return {
        line: i,
        by: byLines ? 'lines' : 'bytes',
        totalLines: lines.length,
        totalBytes,
        droppedLines: lines.length - i,
        droppedBytes: totalBytes - bytes,
      };
    }
    bytes += sizes[i]!;
  }
  return undefined;
}
