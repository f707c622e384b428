// Rule `memory.daily.invalid-date`: a daily note's file-name date (and its `# YYYY-MM-DD` heading,
// when it has one) is a real calendar date. Imports only core.
//
// ok:
//   memory/2026-02-28.md       # 2026-02-28
//   memory/2024-02-29.md       (a leap day)
//
// not ok:
//   memory/2026-02-30.md       ← memory.daily.invalid-date (warning), on line 0
//   memory/2026-03-01.md       # 2026-13-01   ← memory.daily.invalid-date (warning), at the heading
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { dailyDateOf } from '../../core/layout.js';
import { LineIndex, range } from '../../core/position.js';
import type { Rule } from './index.js';

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}$/;

/** Severity of every finding of this rule (overridable per code in validateWorkspace). */
const SEVERITY = 'warning';

export const dailyDate: Rule = {
  id: DiagnosticCode.invalidDailyDate,
  codes: [DiagnosticCode.invalidDailyDate],
  defaultSeverity: SEVERITY,
  docs:
    'Daily notes are named YYYY-MM-DD.md after a real date (the date feeds --since/--until filters). A date-like ' +
    'first heading must be a real date too.',
  check(doc) {
    if (doc.kind !== 'daily') return [];
    const out: Diagnostic[] = [];
    const base = doc.path.slice(doc.path.lastIndexOf('/') + 1);
    const named = /^\d{4}-\d{2}-\d{2}/.exec(base)?.[0];
    if (named !== undefined && dailyDateOf(doc.path) === undefined) {
      out.push({
        path: doc.path,
        range: range(0, 0, 0, new LineIndex(doc.text).lineText(0).length),
        severity: SEVERITY,
        code: DiagnosticCode.invalidDailyDate,
        message: `file name date ${named} is not a real date`,
        data: { date: named, source: 'file-name' },
      });
    }
    const h1 = doc.headings.find((h) => h.depth === 1);
    const text = h1?.text.trim();
    if (h1 && text !== undefined && DATE_LIKE.test(text) && dailyDateOf(text) === undefined) {
      out.push({
        path: doc.path,
        range: h1.range,
        severity: SEVERITY,
        code: DiagnosticCode.invalidDailyDate,
        message: `heading date ${text} is not a real date`,
        data: { date: text, source: 'heading' },
      });
    }
    return out;
  },
};
