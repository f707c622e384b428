// Diagnostics publishing: the editor's diagnostics (editor/diagnostics.ts) sent per document, only
// when a set changed; files that had some and are gone are cleared; error counts per file for the
// tree view; and the one diagnostic on a gitmem.config.json that does not validate.
// deps: core, editor, vscode-languageserver.
import type { Connection, TextDocuments } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { RelPath } from '../core/paths.js';
import { range as coreRange } from '../core/position.js';
import { editorDiagnostics } from '../editor/diagnostics.js';
import { PathMapper, toLspDiagnostic, toLspRange } from './convert.js';
import { openPaths, uriOf } from './open-documents.js';
import type { Session } from './session.js';
import { toClient } from './to-client.js';

/** Sends `textDocument/publishDiagnostics` for one connection. */
export class DiagnosticsPublisher {
  readonly #connection: Connection;
  readonly #documents: TextDocuments<TextDocument>;
  /** uri → JSON of the diagnostics last sent, so unchanged sets are not re-sent. */
  readonly #published = new Map<string, string>();
  readonly #errorCounts = new Map<string, number>();
  #configUri: string | undefined;

  constructor(connection: Connection, documents: TextDocuments<TextDocument>) {
    this.#connection = connection;
    this.#documents = documents;
  }

  /** Errors last published for `path` (0 when none or never published). */
  errorCount(path: string): number {
    return this.#errorCounts.get(path) ?? 0;
  }

  #send(s: Session, byPath: Map<RelPath, Diagnostic[]>): void {
    for (const [path, diags] of byPath) {
      const uri = uriOf(this.#documents, s.paths, path);
      const lsp = diags.map(toLspDiagnostic);
      const key = JSON.stringify(lsp);
      const before = this.#published.get(uri);
      this.#errorCounts.set(path, diags.filter((d) => d.severity === 'error').length);
      if (before === key || (before === undefined && lsp.length === 0)) continue;
      this.#published.set(uri, key);
      const doc = this.#documents.get(uri);
      toClient(() =>
        this.#connection.sendDiagnostics({ uri, ...(doc ? { version: doc.version } : {}), diagnostics: lsp }),
      );
    }
  }

  /** Diagnostics of `paths` (near-duplicate checks for the open ones). */
  publish(s: Session, paths: readonly RelPath[]): void {
    if (!s.model.loaded || paths.length === 0) return;
    this.#send(s, editorDiagnostics(s.model, paths, openPaths(this.#documents, s.paths)));
  }

  /**
   * The open documents' diagnostics again: after the background embedding stored new vectors, the
   * near-duplicate check by meaning (service/shared/dedupe-policy.ts, stored vectors only) may answer
   * differently; unchanged sets are not re-sent.
   */
  publishOpen(s: Session): void {
    this.publish(s, [...openPaths(this.#documents, s.paths)]);
  }

  /** Every document's diagnostics; clears files that had some and are gone. */
  publishAll(s: Session): void {
    const all = editorDiagnostics(s.model, undefined, openPaths(this.#documents, s.paths));
    const uris = new Set([...all.keys()].map((p) => uriOf(this.#documents, s.paths, p)));
    for (const uri of [...this.#published.keys()]) {
      if (!uris.has(uri) && uri !== this.#configUri) {
        this.#published.delete(uri);
        toClient(() => this.#connection.sendDiagnostics({ uri, diagnostics: [] }));
      }
    }
    this.#send(s, all);
  }

  /** gitmem.config.json that does not validate: one diagnostic on the file, retried when it changes. */
  publishConfigError(root: string, message: string): void {
    this.#configUri = new PathMapper(root).toUri(CONFIG_FILE);
    const uri = this.#configUri;
    toClient(() =>
      this.#connection.sendDiagnostics({
        uri,
        diagnostics: [
          {
            range: toLspRange(coreRange(0, 0, 0, 1)),
            severity: 1,
            source: 'gitmem',
            code: 'memory.config.invalid',
            message,
          },
        ],
      }),
    );
  }

  /** Clear the config diagnostic (the workspace opened). */
  clearConfigDiagnostic(): void {
    const uri = this.#configUri;
    if (uri) toClient(() => this.#connection.sendDiagnostics({ uri, diagnostics: [] }));
    this.#configUri = undefined;
  }
}
