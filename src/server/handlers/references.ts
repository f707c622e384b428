// textDocument/references: on a link, every place that refers to the memories it names; elsewhere
// in an entry (e.g. its title), every place that refers to the entry itself. Cancellable.
// deps: editor, vscode-languageserver.
import type { Location } from 'vscode-languageserver/node.js';
import { declarationRange, references, targetAt } from '../../editor/navigation.js';
import { cancelled, guard, tick, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';

/** Register textDocument/references. */
export function registerReferences(ctx: ServerContext): void {
  ctx.connection.onReferences(
    guard(
      ctx.log,
      'references',
      null,
      async (
        p: {
          textDocument: { uri: string };
          position: { line: number; character: number };
          context?: { includeDeclaration?: boolean };
        },
        token,
      ) => {
        await tick();
        const a = ctx.at(p.textDocument.uri);
        if (!a) return null;
        const ws = a.s.model.workspace;
        const t = targetAt(ws, a.path, p.position);
        const self = a.s.model.doc(a.path);
        // On a link: its targets; elsewhere in an entry (e.g. its title): the entry itself.
        const docs = t?.docs.length
          ? t.docs
          : self && (self.kind === 'entry' || self.kind === 'playbook')
            ? [self]
            : [];
        if (!docs.length) return [];
        const refs = references(ws, docs, () => token.isCancellationRequested);
        if (token.isCancellationRequested) throw cancelled();
        const out: Location[] = refs.map((r) => ({ uri: ctx.uriOf(a.s, r.path), range: toLspRange(r.range) }));
        if (p.context?.includeDeclaration)
          for (const d of docs) out.unshift({ uri: ctx.uriOf(a.s, d.path), range: toLspRange(declarationRange(d)) });
        return out;
      },
    ),
  );
}
