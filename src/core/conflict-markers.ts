// Merge conflict markers in a text: the blocks an unresolved git merge leaves (`<<<<<<< ours`,
// optionally diff3's `||||||| base`, `=======`, `>>>>>>> theirs`). Markers inside a fenced code block
// (a note explaining conflicts) are text. One owner for the validation rule
// (validate/rules/conflict-markers.ts). Pure; imports nothing.

/** One marker block: 0-based first and last line, and the last line's length. */
export interface ConflictBlock {
  readonly startLine: number;
  readonly endLine: number;
  readonly endLength: number;
}

const OPEN = /^<{7}(?:[ \t]|$)/;
const BASE = /^\|{7}(?:[ \t]|$)/;
const MIDDLE = /^={7}[ \t]*$/;
const CLOSE = /^>{7}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Every complete marker block of `text` outside fenced code, in order. */
export function conflictBlocks(text: string): ConflictBlock[] {
  const out: ConflictBlock[] = [];
  const lines = text.split(/\r?\n/);
  let fence: string | undefined;
  let open: { line: number; middle: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line)?.[1];
    if (open === undefined && f !== undefined) {
      if (fence === undefined) fence = f;
      else if (f[0] === fence[0] && f.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    if (OPEN.test(line)) open = { line: i, middle: false };
    else if (open && (MIDDLE.test(line) || BASE.test(line))) open.middle ||= MIDDLE.test(line);
    else if (open?.middle && CLOSE.test(line)) {
      out.push({ startLine: open.line, endLine: i, endLength: line.length });
      open = undefined;
    }
  }
  return out;
}
