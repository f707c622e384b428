// Rule `memory.merge.conflict-markers`: a memory file still holds the markers of an unresolved git
// merge (`git merge`, `git pull`, `git rebase` without the gitmem driver, or a driver conflict that
// was committed as it stood). Recall would serve `<<<<<<< HEAD` and both sides' text as memory, so
// each marker block is an error at its first line. Markers inside a fenced code block (a note
// explaining conflicts) are text. Imports only core.
//
// ok:
//   ```
//   <<<<<<< HEAD            (inside a fence: an example)
//   ```
//
// not ok:
//   <<<<<<< HEAD            ← memory.merge.conflict-markers (error), lines up to >>>>>>> other
//   - the pool is capped at 20
//   =======
//   - the pool is capped at 30
//   >>>>>>> other
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import type { Rule } from './index.js';

const SEVERITY = 'error';
const OPEN = /^<{7}(?:[ \t]|$)/;
const BASE = /^\|{7}(?:[ \t]|$)/;
const MIDDLE = /^={7}[ \t]*$/;
const CLOSE = /^>{7}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export const conflictMarkers: Rule = {
  id: DiagnosticCode.conflictMarkers,
  codes: [DiagnosticCode.conflictMarkers],
  defaultSeverity: SEVERITY,
  docs:
    'A memory file holds the markers of an unresolved git merge (<<<<<<<, =======, >>>>>>>): recall would serve ' +
    'both sides and the markers as memory. Resolve the block (keep the right lines, drop the markers). Markers ' +
    'inside a fenced code block are not reported.',
  check(doc) {
    const out: Diagnostic[] = [];
    const lines = doc.text.split(/\r?\n/);
    let fence: string | undefined;
    let open: { line: number; middle: boolean } | undefined;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!;
      const f = FENCE.exec(text)?.[1];
      if (open === undefined && f !== undefined) {
        if (fence === undefined) fence = f;
        else if (f[0] === fence[0] && f.length >= fence.length) fence = undefined;
        continue;
      }
      if (fence !== undefined) continue;
      if (OPEN.test(text)) open = { line: i, middle: false };
      else if (open && (MIDDLE.test(text) || BASE.test(text))) open.middle ||= MIDDLE.test(text);
      else if (open?.middle && CLOSE.test(text)) {
        out.push({
          path: doc.path,
          range: range(open.line, 0, i, text.length),
          severity: SEVERITY,
          code: DiagnosticCode.conflictMarkers,
          message: `unresolved merge conflict (lines ${open.line + 1}-${i + 1}): keep the right lines and remove the <<<<<<< / ======= / >>>>>>> markers`,
          data: { startLine: open.line + 1, endLine: i + 1 },
        });
        open = undefined;
      }
    }
    return out;
  },
};
