// The only place that maps core values to LSP values and back: ranges, severities, diagnostics,
// URIs ↔ workspace-relative paths, MemoryError → ResponseError. Core ranges are already 0-based
// UTF-16 (LSP's encoding), so positions pass through unchanged.
// deps: core (types), vscode-languageserver, node:url/node:path.
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DiagnosticSeverity,
  ErrorCodes,
  ResponseError,
  type Diagnostic as LspDiagnostic,
  type Range as LspRange,
} from 'vscode-languageserver/node.js';
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import { isMemoryError } from '../core/errors.js';
import { toNewRelPath, type RelPath } from '../core/paths.js';
import type { Range } from '../core/position.js';

/** LSP-shaped copy of a core range (a fresh object: LSP types are mutable). */
export function toLspRange(r: Range): LspRange {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A core diagnostic as LSP sends it: `source: gitmem`, the stable code, `data` kept for code actions. */
export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: toLspRange(d.range),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'gitmem',
    message: d.message,
    ...(d.data ? { data: { ...d.data } } : {}),
  };
}

/** Maps between client URIs and workspace-relative paths under one root. */
export class PathMapper {
  readonly #roots: string[];

  /** `roots`: the workspace folder as the client named it and as the file system resolved it. */
  constructor(...roots: string[]) {
    this.#roots = [...new Set(roots.map((r) => r.replace(/\\/g, '/').replace(/\/+$/, '')))];
  }

  /** @returns the path of `uri` inside the root, or undefined for other schemes and outside paths. */
  toPath(uri: string): RelPath | undefined {
    if (!uri.startsWith('file:')) return undefined;
    let abs: string;
    try {
      abs = fileURLToPath(uri).replace(/\\/g, '/');
    } catch {
      return undefined;
    }
    for (const root of this.#roots) {
      if (abs.startsWith(`${root}/`)) {
        const rel = abs.slice(root.length + 1);
        if (rel && !rel.split('/').includes('..')) return rel as RelPath;
      }
    }
    return undefined;
  }

  /**
   * {@link toPath} of a name the client is about to give a file or folder (willRenameFiles' newUri).
   * On Linux and macOS a backslash is a character of a name, which toPath reads as a folder
   * separator; a new name holding one is refused as `gitmem mv` refuses it (core/paths.ts
   * toNewRelPath, U63, U69). On Windows a file URI cannot hold one (fileURLToPath refuses `%5C`).
   * @throws MemoryError `path.invalid`, its message ending with `consequence`.
   */
  toNewPath(uri: string, consequence: string): RelPath | undefined {
    const rel = this.toPath(uri);
    if (rel === undefined || sep === '\\') return rel;
    // Backslash to slash is one character for one, so the path's tail is `rel` as the client named it.
    const named = fileURLToPath(uri).slice(-rel.length);
    if (named.includes('\\')) toNewRelPath(named, consequence);
    return rel;
  }

  /** @returns the file URI of a workspace path (under the first root). */
  toUri(path: string): string {
    return pathToFileURL(join(this.#roots[0]!, ...path.split('/'))).href;
  }
}

/** @returns the folder path of a `file:` URI, or undefined. */
export function folderOf(uri: string | null | undefined): string | undefined {
  if (!uri || !uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Codes of ResponseErrors the server sends for MemoryErrors (JSON-RPC server-error range). */
const MEMORY_ERROR = -32001;

/** A ResponseError for any thrown value: MemoryErrors keep their code and data in `data`. */
export function toResponseError(e: unknown): ResponseError<unknown> {
  if (e instanceof ResponseError) return e;
  if (isMemoryError(e))
    return new ResponseError(e.code === 'usage' ? ErrorCodes.InvalidParams : MEMORY_ERROR, e.message, e.toJSON());
  return new ResponseError(ErrorCodes.InternalError, `internal error: ${(e as Error)?.message ?? String(e)}`, {
    code: 'internal',
  });
}
