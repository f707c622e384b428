// textDocument/completion: editor/completion.ts's proposals as LSP completion items (each with a
// text edit over what it replaces). deps: editor, vscode-languageserver.
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver/node.js';
import { nameForAgent } from '../../core/agent-text.js';
import { maskName } from '../../core/secret-mask.js';
import { complete } from '../../editor/completion.js';
import { cancelled, guard, tick, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';

const KINDS = {
  enum: CompletionItemKind.EnumMember,
  tag: CompletionItemKind.Keyword,
  id: CompletionItemKind.Reference,
  file: CompletionItemKind.File,
  key: CompletionItemKind.Property,
};

/** Register textDocument/completion. */
export function registerCompletion(ctx: ServerContext): void {
  ctx.connection.onCompletion(
    guard(
      ctx.log,
      'completion',
      null,
      async (p: { textDocument: { uri: string }; position: { line: number; character: number } }, token) => {
        await tick();
        if (token.isCancellationRequested) throw cancelled();
        const a = ctx.at(p.textDocument.uri);
        if (!a) return null;
        const res = complete(a.s.model, a.path, p.position, () => token.isCancellationRequested);
        if (token.isCancellationRequested) throw cancelled();
        // Shown masked (R143); an item whose inserted text holds a credential (an id named after a
        // token) is not offered: inserting it would copy the credential into the file.
        const items: CompletionItem[] = res.items
          .filter((i) => maskName(i.insertText ?? i.label) === (i.insertText ?? i.label))
          .map((i) => ({
            label: maskName(i.label),
            kind: KINDS[i.kind],
            textEdit: { range: toLspRange(i.range), newText: i.insertText ?? i.label },
            // A title or description that reads as an instruction is labelled, as recall labels a name (R184).
            ...(i.detail ? { detail: nameForAgent(i.detail) } : {}),
            ...(i.documentation ? { documentation: nameForAgent(i.documentation) } : {}),
            ...(i.sortText ? { sortText: i.sortText } : {}),
            filterText: i.label,
          }));
        return { isIncomplete: res.incomplete, items };
      },
    ),
  );
}
