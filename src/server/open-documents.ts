// The client's open documents seen as workspace paths: which paths are open, and the URI to use for
// a path (an open document's own URI, else the mapped one), and which open documents may be read at
// all (confinedPath). deps: core, vscode-languageserver, node:fs, node:path.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
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

/**
 * @returns the workspace path of an open document whose text may enter the overlay: `uri` maps
 * inside the root AND its real path (the deepest existing ancestor, for a new file) stays inside
 * `realRoot` (MemoryFs.root). A buffer reached through a symlink that leads out of the workspace is
 * never parsed, indexed or edited: every rename or code-action edit would be written out there.
 */
export function confinedPath(paths: PathMapper, realRoot: string, uri: string): RelPath | undefined {
  const path = paths.toPath(uri);
  if (!path) return undefined;
  let probe = join(realRoot, ...path.split('/'));
  for (;;) {
    try {
      const rel = relative(realRoot, realpathSync.native(probe));
      return rel === '..' || rel.startsWith('../') || isAbsolute(rel) ? undefined : path;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const up = dirname(probe);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || up === probe) return undefined;
      probe = up;
    }
  }
}
