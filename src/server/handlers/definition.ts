// textDocument/definition: a link or id goes to the `id:` of each memory it names, a relative link
// to a code file goes to that file. deps: core, editor, vscode-languageserver.
import type { Location } from 'vscode-languageserver/node.js';
import { range as coreRange } from '../../core/position.js';
import { declarationRange, targetAt } from '../../editor/navigation.js';
import { guard, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';

/** Register textDocument/definition. */
export function registerDefinition(ctx: ServerContext): void {
  ctx.connection.onDefinition(
    guard(
      ctx.log,
      'definition',
      null,
      (p: { textDocument: { uri: string }; position: { line: number; character: number } }): Location[] | null => {
        const a = ctx.at(p.textDocument.uri);
        if (!a) return null;
        const t = targetAt(a.s.model.workspace, a.path, p.position);
        if (!t) return null;
        if (t.docs.length)
          return t.docs.map((d) => ({ uri: ctx.uriOf(a.s, d.path), range: toLspRange(declarationRange(d)) }));
        if (t.kind === 'path' && t.path && a.s.model.codeFiles().includes(t.path))
          return [{ uri: a.s.paths.toUri(t.path), range: toLspRange(coreRange(0, 0, 0, 0)) }];
        return null;
      },
    ),
  );
}
