// Rule `memory.load.over-budget`: an always-loaded file (the long-term MEMORY.md) longer than the
// host budget (config `load.maxLines` / `load.maxBytes`) is cut at session start, silently. The
// warning sits on the first line that would not be loaded. Imports only core.
//
// ok:      MEMORY.md with 120 lines, 9 KB
// not ok:  MEMORY.md with 260 lines   ← memory.load.over-budget (warning), on line 201
import { DEFAULT_CONFIG } from '../../core/config.js';
import { loadCut } from '../../core/budget.js';
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { LineIndex, range } from '../../core/position.js';
import type { Rule } from './index.js';

export const loadBudget: Rule = {
  id: DiagnosticCode.overLoadBudget,
  codes: [DiagnosticCode.overLoadBudget],
  defaultSeverity: 'warning',
  docs:
    'Always-loaded files (MEMORY.md) must fit what agent hosts load at session start (config `load`, default ' +
    '200 lines / 20000 bytes). The warning marks the first line a host would cut; move detail into entries.',
  check(doc, ctx) {
    if (doc.kind !== 'long_term') return [];
    const budget = ctx.load ?? DEFAULT_CONFIG.load;
    const cut = loadCut(doc.text, budget);
    if (!cut) return [];
    const li = new LineIndex(doc.text);
    const limit = cut.by === 'lines' ? `${budget.maxLines} lines` : `${budget.maxBytes} bytes`;
    const d: Diagnostic = {
      path: doc.path,
      range: range(cut.line, 0, cut.line, li.lineText(cut.line).length),
      severity: 'warning',
      code: DiagnosticCode.overLoadBudget,
      message:
        `a host that loads ${limit} cuts ${doc.path} here: lines ${cut.line + 1}–${cut.totalLines} ` +
        `(${cut.droppedLines} line${cut.droppedLines === 1 ? '' : 's'}, ${cut.droppedBytes} bytes) would not be loaded; move detail into entries`,
      data: {
        line: cut.line + 1,
        by: cut.by,
        droppedLines: cut.droppedLines,
        droppedBytes: cut.droppedBytes,
        ...budget,
      },
    };
    return [d];
  },
};
