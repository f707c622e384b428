// textDocument/documentSymbol: the heading tree of a memory file (editor/symbols.ts).
// deps: editor, vscode-languageserver.
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver/node.js';
import { nameForAgent } from '../../core/agent-text.js';
import { headings } from '../../editor/symbols.js';
import type { HeadingSymbol } from '../../editor/types.js';
import { guard, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';

const toSymbol = (h: HeadingSymbol): DocumentSymbol => ({
  name: nameForAgent(h.name), // masked (R143), labelled when it reads as an instruction (R184)
  detail: '#'.repeat(h.depth),
  kind: SymbolKind.String,
  range: toLspRange(h.range),
  selectionRange: toLspRange(h.selectionRange),
  children: h.children.map(toSymbol),
});

/** Register textDocument/documentSymbol. */
export function registerDocumentSymbols(ctx: ServerContext): void {
  ctx.connection.onDocumentSymbol(
    guard(ctx.log, 'documentSymbol', null, (p: { textDocument: { uri: string } }): DocumentSymbol[] | null => {
      const a = ctx.at(p.textDocument.uri);
      if (!a) return null;
      return headings(a.s.model.workspace, a.path).map(toSymbol);
    }),
  );
}
