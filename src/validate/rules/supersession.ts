// Rules `memory.entry.supersession.unknown-id` and `memory.entry.supersession.cycle`: every id in
// `supersedes:` names an existing entry or playbook entry, and supersession never loops (in a
// cycle every entry would hide another and none would be current). Imports only core.
//
// ok:
//   b.md  id: b   supersedes: [a]        (a.md exists)
//
// not ok:
//   b.md  supersedes: [no-such-id]       ← memory.entry.supersession.unknown-id (error), at the id
//   a.md  supersedes: [b]; b.md supersedes: [a]   ← memory.entry.supersession.cycle (error), in both files
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import type { MemoryDoc } from '../../core/document.js';
import { range, type Range } from '../../core/position.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import type { Rule } from './index.js';

/** Range of the i-th `supersedes` value (or of the key when it is a scalar), else line 0. */
function supersedesRange(doc: MemoryDoc, i: number | undefined): Range {
  const nodes = doc.frontMatter?.nodes ?? {};
  const node = (i !== undefined ? nodes[`/supersedes/${i}`] : undefined) ?? nodes['/supersedes'];
  if (node) return i === undefined ? (node.key ?? node.value) : node.value;
  return range(0, 0, 0, 0);
}

/** @returns one cycle through `doc` as ids (`[a, b, a]`), or undefined. Bounded by the id count. */
export function supersessionCycle(doc: MemoryDoc, ws: MemoryWorkspace): string[] | undefined {
  const start = doc.meta.id;
  if (start === undefined) return undefined;
  const seen = new Set<string>();
  // Depth-first with an explicit stack of paths: workspaces may hold long supersession chains.
  const stack: string[][] = [[start]];
  while (stack.length) {
    const trail = stack.pop()!;
    const id = trail[trail.length - 1]!;
    const docs: readonly MemoryDoc[] = id === start && trail.length === 1 ? [doc] : ws.byId(id);
    for (const d of docs) {
      for (const next of d.meta.supersedes ?? []) {
        if (next === start) return [...trail, next];
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push([...trail, next]);
      }
    }
  }
  return undefined;
}

export const supersession: Rule = {
  id: 'memory.entry.supersession',
  codes: [DiagnosticCode.supersedesUnknown, DiagnosticCode.supersessionCycle],
  defaultSeverity: 'error',
  docs:
    '`supersedes:` lists ids of existing entries (recall hides what a newer entry supersedes), and supersession ' +
    'must not form a cycle. Both are errors: either would hide a memory for no reason, or hide all of them.',
  check(doc, ctx) {
    if ((doc.kind !== 'entry' && doc.kind !== 'playbook') || !doc.meta.supersedes?.length) return [];
    const out: Diagnostic[] = [];
    const raw = doc.frontMatter?.data?.supersedes;
    const listed = Array.isArray(raw);
    doc.meta.supersedes.forEach((id, i) => {
      if (ctx.workspace.byId(id).length > 0) return;
      out.push({
        path: doc.path,
        range: supersedesRange(doc, listed ? i : undefined),
        severity: 'error',
        code: DiagnosticCode.supersedesUnknown,
        message: `supersedes "${id}", but no memory has that id`,
        data: { id },
      });
    });
    const cycle = supersessionCycle(doc, ctx.workspace);
    if (cycle) {
      out.push({
        path: doc.path,
        range: supersedesRange(doc, undefined),
        severity: 'error',
        code: DiagnosticCode.supersessionCycle,
        message: `supersession cycle: ${cycle.join(' → ')}; one of them must be the current memory`,
        data: { cycle },
      });
    }
    return out;
  },
};
