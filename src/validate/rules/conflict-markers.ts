// Rule `memory.merge.conflict-markers`: a memory file still holds the markers of an unresolved git
// merge (`git merge`, `git pull`, `git rebase` without the gitmem driver, or a driver conflict that
// was committed as it stood). Recall would serve `<<<<<<< HEAD` and both sides' text as memory, so
// each marker block is an error at its first line. Markers inside a fenced code block (a note
// explaining conflicts) are text (the detection: core/conflict-markers.ts). Imports only core.
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
import { conflictBlocks } from '../../core/conflict-markers.js';
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import type { Rule } from './index.js';

const SEVERITY = 'error';

export const conflictMarkers: Rule = {
  id: DiagnosticCode.conflictMarkers,
  codes: [DiagnosticCode.conflictMarkers],
  defaultSeverity: SEVERITY,
  docs:
    'A memory file holds the markers of an unresolved git merge (<<<<<<<, =======, >>>>>>>): recall would serve ' +
    'both sides and the markers as memory. Resolve the block (keep the right lines, drop the markers). Markers ' +
    'inside a fenced code block are not reported.',
  check(doc) {
    return conflictBlocks(doc.text).map((b): Diagnostic => ({
      path: doc.path,
      range: range(b.startLine, 0, b.endLine, b.endLength),
      severity: SEVERITY,
      code: DiagnosticCode.conflictMarkers,
      message: `unresolved merge conflict (lines ${b.startLine + 1}-${b.endLine + 1}): keep the right lines and remove the <<<<<<< / ======= / >>>>>>> markers`,
      data: { startLine: b.startLine + 1, endLine: b.endLine + 1 },
    }));
  },
};
