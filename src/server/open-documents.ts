// The client's open documents seen as workspace paths: which paths are open, and the URI to use for
// a path (an open document's own URI, else the mapped one). deps: core, vscode-languageserver.
import type { TextDocuments } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { RelPath } from '../core/paths.js';
import type { PathMapper } from './convert.js';

/** @returns the workspace paths of the open documents. */
export function openPaths(documents: TextDocuments<TextDocument>, paths: PathMapper): Set<RelPath> {
  const out = new Set<RelPath>();
  for (const d of documents.all()) {
    const p = paths.toPath(d.uri);
    if (p) out.add(p);
  }
  return out;
}

/** @returns the URI the client uses for `path`: an open document's, else the mapped one. */
export function uriOf(documents: TextDocuments<TextDocument>, paths: PathMapper, path: RelPath): string {
  for (const d of documents.all()) if (paths.toPath(d.uri) === path) return d.uri;
  return paths.toUri(path);
}
