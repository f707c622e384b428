// Rule `memory.tag.unknown`: with a tag catalogue (tags.md under the memory folder), a tag on an
// entry or playbook entry that the catalogue does not list gets a hint — add it to tags.md or use a
// listed one. Without a catalogue any tag is fine and nothing is reported. Imports only core.
//
// ok:     tags: [postgres]        (tags.md has "## postgres"), or no tags.md at all
// not ok: tags: [postgress]       ← memory.tag.unknown (hint) 'tag "postgress" is not in memory/tags.md'
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import { tagCatalogue } from '../../core/tags.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import type { Rule } from './index.js';

const cache = new WeakMap<MemoryWorkspace, ReturnType<typeof tagCatalogue> | null>();

export const unknownTag: Rule = {
  id: DiagnosticCode.unknownTag,
  codes: [DiagnosticCode.unknownTag],
  defaultSeverity: 'hint',
  docs: 'With a tag catalogue (tags.md under the memory folder: one "## name" section per tag with category and description), a tag it does not list is a hint. Without tags.md any tag is fine.',
  check(doc, ctx) {
    if (doc.kind !== 'entry' && doc.kind !== 'playbook') return [];
    let cat = cache.get(ctx.workspace);
    if (cat === undefined) {
      cat = tagCatalogue(ctx.workspace) ?? null;
      cache.set(ctx.workspace, cat);
    }
    if (!cat) return [];
    const out: Diagnostic[] = [];
    doc.meta.tags.forEach((t, i) => {
      if (cat.tags.has(t)) return;
      const node = doc.frontMatter?.nodes[`/tags/${i}`] ?? doc.frontMatter?.nodes['/tags'];
      out.push({
        path: doc.path,
        range: node?.value ?? range(0, 0, 0, 0),
        severity: 'hint',
        code: DiagnosticCode.unknownTag,
        message: `tag "${t}" is not in ${cat.path}`,
        data: { tag: t, catalogue: cat.path },
      });
    });
    return out;
  },
};
