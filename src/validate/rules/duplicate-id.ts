// Rule `memory.entry.duplicate-id`: an entry or playbook id (front-matter `id`, else the file slug)
// is unique in the workspace. Each document sharing the id gets its own diagnostic.
// Imports only core.
//
// ok:
//   memory/entries/a.md   id: use-lunr
//   memory/entries/b.md   id: use-postgres
//
// not ok (both files are reported, at their `id:` key, or line 0 when the id is the slug):
//   memory/entries/a.md       id: use-lunr
//   memory/playbook/use-lunr.md   (no id → slug `use-lunr`)
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { idRange } from './id-range.js';
import type { Rule } from './index.js';

/** Severity of every finding of this rule (overridable per code in validateWorkspace). */
const SEVERITY = 'error';

export const duplicateId: Rule = {
  id: DiagnosticCode.duplicateId,
  codes: [DiagnosticCode.duplicateId],
  defaultSeverity: SEVERITY,
  docs:
    'Entry and playbook ids must be unique in the workspace: [[id]] links and `gitmem get <id>` must name one ' +
    'memory. Every file that shares the id is reported; `data.others` lists the other paths.',
  check(doc, ctx) {
    if ((doc.kind !== 'entry' && doc.kind !== 'playbook') || doc.meta.id === undefined) return [];
    const same = ctx.workspace.byId(doc.meta.id);
    if (same.length < 2) return [];
    const others = same
      .filter((d) => d.path !== doc.path)
      .map((d) => d.path)
      .sort();
    const diag: Diagnostic = {
      path: doc.path,
      range: idRange(doc, 'key'),
      severity: SEVERITY,
      code: DiagnosticCode.duplicateId,
      message: `id "${doc.meta.id}" is also used by ${others.join(', ')}`,
      data: { id: doc.meta.id, others },
    };
    return [diag];
  },
};
