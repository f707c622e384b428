// textDocument/codeAction: editor/code-actions.ts's actions for the diagnostics under the range, as
// LSP workspace edits (a create-file operation first when the client supports it; actions that
// need one are left out otherwise, and so are new files whose folder links out of the workspace);
// an action that runs a client command (the stale-code diff) carries it as the action's `command`.
// deps: core, editor, vscode-languageserver.
import { CodeActionKind, type CodeAction, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node.js';
import type { RelPath } from '../../core/paths.js';
import { range as coreRange } from '../../core/position.js';
import { codeActions } from '../../editor/code-actions.js';
import { editorDiagnostics } from '../../editor/diagnostics.js';
import type { EditorAction } from '../../editor/types.js';
import { guard, type ServerContext } from '../context.js';
import { toLspDiagnostic, toLspRange } from '../convert.js';
import type { Session } from '../session.js';

/** Register textDocument/codeAction. */
export function registerCodeActions(ctx: ServerContext): void {
  ctx.connection.onCodeAction(
    guard(
      ctx.log,
      'codeAction',
      null,
      async (p: {
        textDocument: { uri: string };
        range: { start: { line: number; character: number }; end: { line: number; character: number } };
        context: { diagnostics: { code?: string | number; range: { start: { line: number } } }[] };
      }): Promise<CodeAction[] | null> => {
        const a = ctx.at(p.textDocument.uri);
        if (!a) return null;
        const ours = editorDiagnostics(a.s.model, [a.path], ctx.openPaths(a.s)).get(a.path) ?? [];
        // Match the client's diagnostics by code and line, not by exact range: Neovim 0.7 sends byte columns.
        const wanted = ours.filter(
          (d) =>
            (d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line) ||
            (p.context?.diagnostics ?? []).some((c) => c.code === d.code && c.range.start.line === d.range.start.line),
        );
        const caps = ctx.capabilities();
        const supportsCreate =
          caps.workspace?.workspaceEdit?.documentChanges === true &&
          (caps.workspace.workspaceEdit.resourceOperations ?? []).includes('create');
        const offered = codeActions(a.s.model, a.path, p.range, wanted, ctx.clock.now()).filter(
          (x) => !x.create || supportsCreate,
        );
        const kept: EditorAction[] = [];
        for (const x of offered) if (!x.create || (await confined(a.s, x.create.path))) kept.push(x);
        return kept.map((x) => toCodeAction(ctx, a.s, x));
      },
    ),
  );
}

/**
 * The client creates the file an action names, following symlinks: a new file is offered only when
 * its path stays inside the workspace (the write guard's own check: a stat through the workspace
 * file system, which refuses a folder that links outside). docs/bad-inputs.md U15.
 */
async function confined(s: Session, path: RelPath): Promise<boolean> {
  try {
    await s.platform.fs.stat(path);
    return true;
  } catch {
    return false;
  }
}

function toCodeAction(ctx: ServerContext, s: Session, x: EditorAction): CodeAction {
  let edit: WorkspaceEdit;
  if (x.create) {
    const createUri = s.paths.toUri(x.create.path);
    const rest = x.edits.filter((e) => e.path !== x.create!.path);
    edit = {
      documentChanges: [
        { kind: 'create', uri: createUri, options: { overwrite: false, ignoreIfExists: false } },
        {
          textDocument: { uri: createUri, version: null },
          edits: [{ range: toLspRange(coreRange(0, 0, 0, 0)), newText: x.create.text }],
        },
        ...group(rest).map(([path, edits]) => ({
          textDocument: { uri: ctx.uriOf(s, path), version: ctx.documents.get(ctx.uriOf(s, path))?.version ?? null },
          edits,
        })),
      ],
    };
  } else {
    edit = { changes: Object.fromEntries(group(x.edits).map(([path, edits]) => [ctx.uriOf(s, path), edits])) };
  }
  return {
    title: x.title,
    kind: x.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.Refactor + '.move',
    ...(x.diagnostic ? { diagnostics: [toLspDiagnostic(x.diagnostic)] } : {}),
    ...(x.isPreferred ? { isPreferred: true } : {}),
    ...(x.create || x.edits.length ? { edit } : {}),
    ...(x.command
      ? { command: { title: x.title, command: x.command.command, arguments: [...(x.command.arguments ?? [])] } }
      : {}),
  };
}

function group(
  edits: readonly { path: RelPath; range: Parameters<typeof toLspRange>[0]; newText: string }[],
): [RelPath, TextEdit[]][] {
  const m = new Map<RelPath, TextEdit[]>();
  for (const e of edits) m.set(e.path, [...(m.get(e.path) ?? []), { range: toLspRange(e.range), newText: e.newText }]);
  return [...m];
}
