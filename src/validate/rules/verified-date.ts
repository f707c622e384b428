// Rule `memory.code.verified-date`: a front-matter `verified:` the code check ignores — a day after
// tomorrow (UTC; R65: it would hide every change to the cited code) or a value that names no day —
// is a warning at the value, so the person who wrote it learns that it counts for nothing (R90).
// Any kind of memory file: the code check reads `verified:` wherever a memory cites code. The
// schema's generic `memory.schema.invalid-date` leaves `verified` to this rule. Imports only core.
//
// ok (today 2026-12-07):
//   verified: 2026-12-07
//   verified: 2026-12-08                (tomorrow: a day's slack for the time zones)
//
// not ok:
//   verified: 2099-01-01   ← memory.code.verified-date (warning) "verified date 2099-01-01 is in the future; …"
//   verified: soon         ← memory.code.verified-date (warning) "verified value "soon" is not a date …"
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import { lastVerifiableDay, verifiedDay } from '../../core/verified-date.js';
import type { Rule } from './index.js';

const IGNORED = 'it is ignored when checking whether cited code changed';

/** The value as written, for the message (a date-time kept as its text; others as JSON). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const verifiedDate: Rule = {
  id: DiagnosticCode.verifiedDate,
  codes: [DiagnosticCode.verifiedDate],
  defaultSeverity: 'warning',
  docs:
    'A front-matter `verified:` date after tomorrow (UTC), or a value that is not a date: the code check ignores it ' +
    '(a re-check not yet made would hide every change to the cited code), so it is reported where it is written.',
  check(doc, ctx) {
    const data = doc.frontMatter?.data;
    if (!data || !Object.hasOwn(data, 'verified')) return [];
    const value = data['verified'];
    if (value === null || value === undefined || value === '') return [];
    const day = verifiedDay(value);
    let message: string;
    if (!day) message = `verified value ${JSON.stringify(shown(value))} is not a date (write YYYY-MM-DD); ${IGNORED}`;
    else if (ctx.today && day > lastVerifiableDay(ctx.today))
      message = `verified date ${day} is in the future; ${IGNORED}`;
    else return [];
    const node = doc.frontMatter?.nodes['/verified'];
    const d: Diagnostic = {
      path: doc.path,
      range: node?.value ?? range(0, 0, 0, 0),
      severity: 'warning',
      code: DiagnosticCode.verifiedDate,
      message,
      data: { field: 'verified', value: shown(value), ...(day ? { date: day } : {}) },
    };
    return [d];
  },
};
