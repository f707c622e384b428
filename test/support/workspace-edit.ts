// Apply an LSP WorkspaceEdit (`changes` form) to real files, the way an editor would: every edit of
// a file is applied against the file's text before any of them (LSP semantics), last offset first.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Pos {
  line: number;
  character: number;
}

function offset(text: string, p: Pos): number {
  let at = 0;
  for (let l = 0; l < p.line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at + p.character;
}

/** Apply `edit.changes` to the files its URIs name. @returns the files written. */
export function applyWorkspaceEdit(
  edit: { changes?: Record<string, { range: { start: Pos; end: Pos }; newText: string }[]> } | null,
): string[] {
  const out: string[] = [];
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) {
    const file = fileURLToPath(uri);
    let text = readFileSync(file, 'utf8');
    const spans = edits
      .map((e) => ({ s: offset(text, e.range.start), e: offset(text, e.range.end), t: e.newText }))
      .sort((a, b) => b.s - a.s);
    for (const x of spans) text = text.slice(0, x.s) + x.t + text.slice(x.e);
    writeFileSync(file, text);
    out.push(file);
  }
  return out;
}
