// Shapes the editor features share, in core terms (RelPath, 0-based UTF-16 Range), and the read-only
// view of the editor's workspace each feature takes (EditorModel implements it). server/ translates
// these to LSP. deps: core only.
import type { MemoryConfig } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { DocKind, MemoryDoc } from '../core/document.js';
import type { Layout } from '../core/layout.js';
import type { RelPath } from '../core/paths.js';
import type { Range } from '../core/position.js';
import type { MemoryWorkspace } from '../core/workspace.js';

/**
 * What an editor feature reads: the parsed workspace, the configuration and layout, and the files
 * of the root (memory or not). Implemented by {@link import('./model.js').EditorModel}.
 */
export interface EditorView {
  readonly workspace: MemoryWorkspace;
  readonly config: MemoryConfig;
  readonly layout: Layout;
  /** True when `path` is a file of the root (memory or not), as last listed or reported. */
  hasFile(path: string): boolean;
  /** Files that are not memory (code, docs), sorted. */
  codeFiles(): string[];
  /** Per-file findings that are not about parsed content (binary, too large, invalid UTF-8). */
  readonly fileDiagnostics: ReadonlyMap<RelPath, readonly Diagnostic[]>;
  /** The clock that dates staleness checks. */
  now(): Date;
  /**
   * The vectors the index stores, read synchronously and never embedded (the Memory's semantic
   * half; absent without a model): the dedupe policy's rule by meaning reads them
   * (service/shared/dedupe-policy.ts StoredVectors).
   */
  readonly vectors?: { storedVector(key: string): Float32Array | undefined };
  /**
   * The last code-check answers of open documents (code-checks.ts; computed in the background, read
   * synchronously): the stale-code diagnostics.
   */
  readonly codeChecks?: { diagnosticsOf(doc: MemoryDoc): Diagnostic[] };
}

/** Something a position in a memory file refers to. */
export type Target =
  | { readonly kind: 'id'; readonly id: string; readonly range: Range; readonly docs: readonly MemoryDoc[] }
  | {
      readonly kind: 'path';
      readonly path: RelPath | undefined;
      readonly target: string;
      readonly range: Range;
      readonly docs: readonly MemoryDoc[];
    };

/** A completion proposal, in core terms. `range` is the text it replaces. */
export interface CompletionEntry {
  readonly label: string;
  readonly kind: 'enum' | 'tag' | 'id' | 'file' | 'key';
  readonly detail?: string;
  readonly documentation?: string;
  readonly insertText?: string;
  readonly range: Range;
  readonly sortText?: string;
}

export interface CompletionAnswer {
  readonly items: readonly CompletionEntry[];
  /** More would match a longer prefix (file paths are capped). */
  readonly incomplete: boolean;
}

/** A text edit in a workspace file. */
export interface FileEdit {
  readonly path: RelPath;
  readonly range: Range;
  readonly newText: string;
}

/** A code action in core terms: edits, and optionally a file to create first. */
export interface EditorAction {
  readonly title: string;
  readonly kind: 'quickfix' | 'refactor';
  readonly diagnostic?: Diagnostic;
  readonly isPreferred?: boolean;
  readonly create?: { readonly path: RelPath; readonly text: string };
  readonly edits: readonly FileEdit[];
  /** A client command the action runs (after its edits, if any), e.g. opening the code's diff. */
  readonly command?: { readonly command: string; readonly arguments?: readonly unknown[] };
}

/** A heading tree node for document symbols. */
export interface HeadingSymbol {
  readonly name: string;
  readonly depth: number;
  /** From the heading to the line before the next heading of the same or a higher level. */
  readonly range: Range;
  readonly selectionRange: Range;
  readonly children: HeadingSymbol[];
}

/** What a hover shows about one memory document. */
export interface DocPreview {
  /** The file's path as shown (masked, R143): not for reading the file. */
  readonly path: string;
  readonly kind: DocKind;
  readonly id?: string;
  readonly title?: string;
  readonly type?: string;
  readonly tags: readonly string[];
  readonly status?: string;
  readonly created?: string;
  /** `source:` front-matter (agent, session, task, origin). */
  readonly source: Readonly<Record<string, string>>;
  readonly duplicateOf?: string;
  /** First lines of the body (markdown). */
  readonly excerpt: string;
}

/** Polled by long loops; true stops them early. */
export type Cancel = () => boolean;
/** Never cancelled. */
export const never: Cancel = () => false;
