// Rule `memory.entry.unlinkable-id`: an entry or playbook id (front-matter `id`, else the file slug)
// must be one a `[[id]]` link can name (core/links.ts unlinkableIdReason; docs/bad-inputs.md B50).
// Imports only core.
//
// ok:
//   id: use-lunr          id: "use postgres 16"          id: 记忆-迁移
//
// not ok (reported at the `id:` value, or line 0 when the id is the slug):
//   id: "two\nlines"      id: "use lunr | bm25"      id: "step#2"      id: "[[other]]"
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { shownValue } from '../../core/errors.js';
import { unlinkableIdReason } from '../../core/links.js';
import { idRange } from './id-range.js';
import type { Rule } from './index.js';

const SEVERITY = 'error';

export const unlinkableId: Rule = {
  id: DiagnosticCode.unlinkableId,
  codes: [DiagnosticCode.unlinkableId],
  defaultSeverity: SEVERITY,
  docs:
    'Entry and playbook ids must be ones a [[id]] link can name: no line break, control character, bracket, ' +
    '"|" or "#", no leading or trailing space, at most 500 characters.',
  check(doc) {
    if ((doc.kind !== 'entry' && doc.kind !== 'playbook') || doc.meta.id === undefined) return [];
    const why = unlinkableIdReason(doc.meta.id);
    if (!why) return [];
    const diag: Diagnostic = {
      path: doc.path,
      range: idRange(doc, 'value'),
      severity: SEVERITY,
      code: DiagnosticCode.unlinkableId,
      message: `id ${shownValue(doc.meta.id)} cannot be named by a [[…]] link: ${why}`,
      data: { id: doc.meta.id },
    };
    return [diag];
  },
};
