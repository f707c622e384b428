// What the feature handlers (server/handlers/*.ts) and document sync get from the server: the
// connection and open documents, the current session, and the shared services (diagnostics
// publishing, index updates, status). One object, built once by server.ts. Also the request helpers
// every handler uses: guard (a failing handler logs and answers its fallback), tick, cancelled.
// deps: core, vscode-languageserver.
import {
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type TextDocuments,
} from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { RelPath } from '../core/paths.js';
import type { Clock, Logger } from '../core/ports.js';
import type { CodeCheckRunner } from './code-checks.js';
import type { DiagnosticsPublisher } from './diagnostics.js';
import type { IndexUpdates } from './index-updates.js';
import type { Session } from './session.js';
import type { ServerStatus } from './status.js';

export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly log: Logger;
  readonly clock: Clock;
  readonly status: ServerStatus;
  readonly diagnostics: DiagnosticsPublisher;
  readonly updates: IndexUpdates;
  /** Stale-code checks of open documents, in the background (code-checks.ts). */
  readonly codeChecks: CodeCheckRunner;
  /** The client's capabilities (from initialize). */
  capabilities(): ClientCapabilities;
  /** The open session, or undefined while the workspace opens or after it failed. */
  session(): Session | undefined;
  /** The open session, or a ServerCancelled ResponseError saying why there is none. */
  need(): Session;
  /** The session and path of a request's document, when the model can answer. */
  at(uri: string): { s: Session; path: RelPath } | undefined;
  /** The URI the client uses for `path` (an open document's, else the mapped one). */
  uriOf(s: Session, path: RelPath): string;
  /** Workspace paths of the open documents. */
  openPaths(s: Session): Set<RelPath>;
  /** Reopen the workspace (gitmem.config.json changed). */
  reboot(): void;
}

/** The error a request answers with when the client cancelled it. */
export const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');

/** Let queued messages ($/cancelRequest, newer edits) run before starting work. */
export const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Wrap a language-feature handler: a ResponseError goes to the client, any other failure is logged
 * (a bug, never a user mistake) and the request answers `fallback`.
 */
export function guard<P, R>(
  log: Logger,
  name: string,
  fallback: R,
  fn: (p: P, token: CancellationToken) => Promise<R> | R,
) {
  return async (p: P, token: CancellationToken): Promise<R> => {
    try {
      return await fn(p, token);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      log.error(`gitmem: ${name} failed: ${(e as Error)?.stack ?? e}`);
      return fallback;
    }
  };
}
