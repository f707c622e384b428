// Rule `memory.entry.expired`: an entry whose `valid_until` or `review_after` date has passed gets
// a hint, so a person confirms, updates or supersedes it (the editor offers each as a code action;
// recall already ranks it down). Only checked when the caller says what day it is. Imports only core.
//
// ok (today 2026-12-01):
//   valid_until: 2027-01-01
//   review_after: 2026-12-01            (valid through its own day)
//
// not ok:
//   valid_until: 2026-10-01   ← memory.entry.expired (hint) "expired 2026-10-01: confirm, update or supersede"
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import type { Rule } from './index.js';

const FIELDS = [
  ['valid_until', 'validUntil', 'expired'],
  ['review_after', 'reviewAfter', 'review due'],
] as const;

export const expiry: Rule = {
  id: DiagnosticCode.expired,
  codes: [DiagnosticCode.expired],
  defaultSeverity: 'hint',
  docs:
    'An entry past its `valid_until` (no longer holds) or `review_after` (should be confirmed again) date: confirm ' +
    'it, update it or supersede it. Recall ranks such entries down. A date is valid through its own day.',
  check(doc, ctx) {
    if (!ctx.today || (doc.kind !== 'entry' && doc.kind !== 'playbook')) return [];
    if (doc.meta.status === 'superseded' || doc.meta.status === 'archived') return [];
    for (const [field, key, word] of FIELDS) {
      const value = doc.meta[key];
      if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value) || value.slice(0, 10) >= ctx.today) continue;
      const node = doc.frontMatter?.nodes[`/${field}`];
      const date = value.slice(0, 10);
      const d: Diagnostic = {
        path: doc.path,
        range: node?.value ?? range(0, 0, 0, 0),
        severity: 'hint',
        code: DiagnosticCode.expired,
        message: `${word} ${date}: confirm, update or supersede`,
        data: { field, date },
      };
      return [d];
    }
    return [];
  },
};
