// Rule `memory.schema`: entry and playbook front-matter conforms to schemas/entry.schema.json and
// schemas/playbook.schema.json. Imports only core and ../schema.ts.
//
// ok (memory/entries/use-lunr.md):
//   ---
//   type: decision
//   tags: [search]
//   created: 2026-11-29T14:02:00Z
//   ---
//
// not ok:
//   ---
//   type: choice            ← memory.schema.invalid-value (error): not one of the 7 types
//   tags: 3                 ← memory.schema.invalid-value (error): must be a list
//   created: yesterday      ← memory.schema.invalid-date (warning)
//   mood: happy             ← memory.schema.unknown-field (warning)
//   ---
//   (no `type:` at all)     ← memory.schema.required (error), on the opening `---` line
import { DiagnosticCode } from '../../core/diagnostics.js';
import { validateFrontMatter } from '../schema.js';
import type { Rule } from './index.js';

export const frontMatterSchema: Rule = {
  id: 'memory.schema',
  codes: [
    DiagnosticCode.missingField,
    DiagnosticCode.invalidValue,
    DiagnosticCode.unknownField,
    DiagnosticCode.invalidDate,
  ],
  defaultSeverity: 'error',
  docs:
    'Entry and playbook front-matter must match its JSON Schema: missing required fields and wrong types or enum ' +
    'values are errors; unknown keys and dates that are not ISO-8601 are warnings (`verified` is reported by ' +
    '`memory.code.verified-date`). Other kinds have no schema.',
  check(doc) {
    if (doc.kind !== 'entry' && doc.kind !== 'playbook') return [];
    // `verified:` is the rule memory.code.verified-date's (rules/verified-date.ts): one finding per value.
    return validateFrontMatter(doc, doc.kind).filter(
      (d) => !(d.code === DiagnosticCode.invalidDate && d.data?.['field'] === 'verified'),
    );
  },
};
