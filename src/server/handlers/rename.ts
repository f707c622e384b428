// LSP rename and move: textDocument/prepareRename and textDocument/rename on an entry id (in
// `[[…]]`, `id:`, `supersedes`, `duplicate_of`, `compatible_with`) or a heading; and
// workspace/willRenameFiles for files and folders renamed or moved in the client. Edits are planned
// by service/files/rename.ts over the editor's workspace; this file only translates to LSP.
import {
  ErrorCodes,
  ResponseError,
  type Connection,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node.js';
import type { RelPath } from '../../core/paths.js';
import type { Range } from '../../core/position.js';
import type { EditorModel } from '../../editor/model.js';
import {
  planHeadingRename,
  planIdRename,
  planMoves,
  renameTargetAt,
  type FileEdit,
  type FileMove,
} from '../../service/files/rename.js';
import { toLspRange, toResponseError, type PathMapper } from '../convert.js';

/** What the rename handlers need from the server session. */
export interface RenameHost {
  /** The session and workspace path of `uri`, or undefined (not loaded, outside the root). */
  at(uri: string): { model: EditorModel; paths: PathMapper; path: RelPath } | undefined;
  /** The URI the client uses for `path` (an open document's, else the mapped one). */
  uriOf(path: RelPath): string;
  /** Called with a failure that is a bug, not a user mistake. */
  logError(message: string): void;
}

/** Globs the server asks the client to announce renames for (memory files and any folder). */
export const WILL_RENAME_FILTERS = [
  { pattern: { glob: '**/*.md', matches: 'file' as const } },
  { pattern: { glob: '**', matches: 'folder' as const } },
];

const NOTHING = 'gitmem renames an entry id, a [[wikilink]] to an entry, or a "#" heading; there is none here';

function toWorkspaceEdit(host: RenameHost, edits: readonly FileEdit[]): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of edits) (changes[host.uriOf(e.path)] ??= []).push({ range: toLspRange(e.range), newText: e.newText });
  return { changes };
}

function rethrow(host: RenameHost, e: unknown): never {
  if (e instanceof ResponseError) throw e;
  const r = toResponseError(e);
  if (r.code === ErrorCodes.InternalError) host.logError(`gitmem: rename failed: ${(e as Error)?.stack ?? e}`);
  throw r;
}

/** Register prepareRename, rename and willRenameFiles on `connection`. */
export function registerRenameHandlers(connection: Connection, host: RenameHost): void {
  connection.onPrepareRename((p): { range: ReturnType<typeof toLspRange>; placeholder: string } | null => {
    const a = host.at(p.textDocument.uri);
    if (!a) return null;
    const t = renameTargetAt(a.model.workspace, a.path, p.position);
    if (!t) throw new ResponseError(ErrorCodes.InvalidRequest, NOTHING);
    return { range: toLspRange(t.range as Range), placeholder: t.kind === 'id' ? t.id : t.text };
  });

  connection.onRenameRequest((p): WorkspaceEdit | null => {
    const a = host.at(p.textDocument.uri);
    if (!a) return null;
    try {
      const t = renameTargetAt(a.model.workspace, a.path, p.position);
      if (!t) throw new ResponseError(ErrorCodes.InvalidRequest, NOTHING);
      if (typeof p.newName !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'rename needs a newName');
      const plan =
        t.kind === 'id'
          ? planIdRename(a.model.workspace, t.id, p.newName)
          : planHeadingRename(a.model.workspace, t.path, t.index, p.newName);
      return toWorkspaceEdit(host, plan.edits);
    } catch (e) {
      rethrow(host, e);
    }
  });

  connection.workspace.onWillRenameFiles((p): WorkspaceEdit | null => {
    const files = Array.isArray(p?.files) ? p.files : [];
    const first = files[0];
    const a = first ? host.at(first.oldUri) : undefined;
    if (!a) return null;
    const moves: FileMove[] = [];
    const docs = a.model.workspace.docs();
    for (const f of files) {
      const from = a.paths.toPath(f.oldUri);
      let to: RelPath | undefined;
      try {
        // A backslash in the new name is part of the name, not a folder (U69); the client moves it anyway.
        to = a.paths.toNewPath(f.newUri, 'gitmem cannot keep the links to it whole (rename it without one)');
      } catch (e) {
        rethrow(host, e);
      }
      if (from && to) moves.push({ from, to });
      // The client moves it anyway (LSP has no veto): say why its links will not follow.
      else if (from && docs.some((d) => d.path === from || d.path.startsWith(`${from}/`)))
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `${from} would move out of the workspace: gitmem cannot keep the links to it whole (move it inside the workspace folder)`,
        );
    }
    if (!moves.length) return null;
    try {
      const known = new Set<string>([...a.model.codeFiles(), ...a.model.workspace.docs().map((d) => d.path)]);
      const plan = planMoves(a.model.workspace, moves, known);
      return plan.edits.length ? toWorkspaceEdit(host, plan.edits) : null;
    } catch (e) {
      rethrow(host, e);
    }
  });
}
