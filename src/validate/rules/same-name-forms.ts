// Rule `memory.file.same-name-forms`: two memory files whose paths are the same name in another
// Unicode normal form (`café.md` composed, NFC, and decomposed, NFD, as macOS tools write names).
// Links, `get` and `log` compare names in NFC and so take them for one file, a macOS checkout keeps
// only one of them, and a reader cannot tell them apart (R35). Each file of such a pair is reported.
// Imports only core.
//
// ok:      memory/café.md (NFC) alone
// not ok:  memory/café.md (NFC) and memory/café.md (NFD)
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import { sameNameGroups, type MemoryWorkspace } from '../../core/workspace.js';
import type { Rule } from './index.js';

const SEVERITY = 'warning';

/** The groups of one workspace, computed once per workspace. */
const cache = new WeakMap<MemoryWorkspace, Map<string, string[]>>();

function twinsIn(ws: MemoryWorkspace): Map<string, string[]> {
  let m = cache.get(ws);
  if (!m) {
    m = new Map();
    for (const group of sameNameGroups(ws.docs().map((d) => d.path as string))) for (const p of group) m.set(p, group);
    cache.set(ws, m);
  }
  return m;
}

/** The normal form `path` is written in, so two spellings that read the same can be told apart. */
const spelled = (path: string) =>
  path.normalize('NFC') === path ? 'NFC' : path.normalize('NFD') === path ? 'NFD' : 'mixed normal forms';

export const sameNameForms: Rule = {
  id: DiagnosticCode.sameNameForms,
  codes: [DiagnosticCode.sameNameForms],
  defaultSeverity: SEVERITY,
  docs:
    'Two memory files whose names differ only in Unicode normalisation (NFC and NFD) read the same: links, ' +
    '`gitmem get` and `gitmem log` take them for one file and a macOS checkout keeps only one. Merge them into ' +
    'one file. `data.others` lists the other spellings.',
  check(doc, ctx) {
    const group = twinsIn(ctx.workspace).get(doc.path);
    if (!group) return [];
    const others = group.filter((p) => p !== doc.path);
    const diag: Diagnostic = {
      path: doc.path,
      range: range(0, 0, 0, 0),
      severity: SEVERITY,
      code: DiagnosticCode.sameNameForms,
      message: `${doc.path} (${spelled(doc.path)}) and ${others.map((o) => `${o} (${spelled(o)})`).join(', ')} are the same name in another Unicode normal form; merge them into one file`,
      data: { others },
    };
    return [diag];
  },
};
