// The language server over any connection: capabilities, the session lifecycle (initialize answers
// at once; the workspace opens and indexes after `initialized`, in the background), and the wiring
// of document sync (document-sync.ts), diagnostics publishing (diagnostics.ts), index updates
// (index-updates.ts) and one handler module per LSP feature (handlers/*.ts). Handlers translate;
// behaviour lives in editor/ and service/.
// deps: service, editor, protocol, core (types), vscode-languageserver, vscode-languageserver-textdocument.
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type WorkDoneProgressServerReporter,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE } from '../core/config.js';
import { isMemoryError } from '../core/errors.js';
import type { RelPath } from '../core/paths.js';
import type { FileWatcher, Logger } from '../core/ports.js';
import { systemClock } from '../core/ports.js';
import { EditorModel } from '../editor/model.js';
import { createOverlayFs } from '../editor/overlay.js';
import { createMemory } from '../service/memory.js';
import { ReadyNotification, type InitializationOptions, type StatusParams } from '../protocol/requests.js';
import type { ServerContext } from './context.js';
import { PathMapper, folderOf } from './convert.js';
import { CodeCheckRunner } from './code-checks.js';
import { DiagnosticsPublisher } from './diagnostics.js';
import { registerDocumentSync } from './document-sync.js';
import { startDreams } from './dreams.js';
import { chooseWatchSource, startServerWatcher } from './file-watch.js';
import { IndexUpdates } from './index-updates.js';
import { confinedPath, openPaths, uriOf } from './open-documents.js';
import type { ServerDeps, Session } from './session.js';
import { ServerStatus } from './status.js';
import { oneShotDeclines } from './one-shot.js';
import { registerCheckpoint } from './handlers/checkpoint.js';
import { registerCodeActions } from './handlers/code-actions.js';
import { registerCodeDiff } from './handlers/code-diff.js';
import { registerCompletion } from './handlers/completion.js';
import { registerDefinition } from './handlers/definition.js';
import { registerDocumentSymbols } from './handlers/document-symbols.js';
import { registerHover } from './handlers/hover.js';
import { registerRecall } from './handlers/recall.js';
import { registerReferences } from './handlers/references.js';
import { registerRemember } from './handlers/remember.js';
import { registerRenameHandlers, WILL_RENAME_FILTERS } from './handlers/rename.js';
import { registerReviewHandlers } from './handlers/review.js';
import { registerSnapshot } from './handlers/snapshot.js';
import { registerStatus } from './handlers/status.js';
import { registerWorkspaceSymbols } from './handlers/workspace-symbols.js';
import { toClient } from './to-client.js';

export type { ServerDeps, WorkspacePlatform } from './session.js';

export interface LanguageServer {
  /** Settles when the first index build finished (or failed). */
  readonly ready: Promise<void>;
  /** Current status (also sent as `gitmem/status`). */
  status(): StatusParams;
  /** Number of completed index updates after the first build (tests: one save, one update). */
  updates(): number;
  dispose(): Promise<void>;
}

const SERVER_NAME = 'gitmem';

/**
 * Wire the gitmem language server onto `connection` (not yet listening). The caller calls
 * `connection.listen()`.
 */
export function createLanguageServer(connection: Connection, deps: ServerDeps): LanguageServer {
  const clock = deps.clock ?? systemClock;
  const documents = new TextDocuments(TextDocument);
  let rootFolder: string | undefined;
  let initOptions: InitializationOptions = {};
  let caps: ClientCapabilities = {};
  let session: Session | undefined;
  let disposed = false;
  let serverWatcher: FileWatcher | undefined;
  /** The session's dream schedule (dreams.ts), when the configuration enables one. */
  let dreams: { stop(): Promise<void> } | undefined;
  let oneShot: { close(): Promise<void> } | undefined;
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const t0 = { initialized: 0 };

  // A message logged while the connection closes (an index update finishing after shutdown) is
  // dropped (to-client.ts).
  const log: Logger = {
    debug: (m) => {
      if (initOptions.debug) toClient(() => connection.console.log(m));
    },
    info: (m) => toClient(() => connection.console.info(m)),
    warn: (m) => toClient(() => connection.console.warn(m)),
    error: (m) => toClient(() => connection.console.error(m)),
  };

  const status = new ServerStatus(connection, clock);
  const diagnostics = new DiagnosticsPublisher(connection, documents);
  const updates = new IndexUpdates({
    session: () => session,
    status,
    log,
    delayMs: deps.reindexDelayMs ?? 200,
    publishAll: (s) => diagnostics.publishAll(s),
  });

  const codeChecks = new CodeCheckRunner({
    session: () => session,
    openPaths: (s) => openPaths(documents, s.paths),
    publish: (s, paths) => diagnostics.publish(s, paths),
    log,
    delayMs: deps.codeCheckDelayMs ?? 150,
  });

  const ctx: ServerContext = {
    connection,
    documents,
    log,
    clock,
    status,
    diagnostics,
    updates,
    codeChecks,
    capabilities: () => caps,
    session: () => session,
    need() {
      if (!session)
        throw new ResponseError(
          LSPErrorCodes.ServerCancelled,
          status.state.state === 'error'
            ? `gitmem is not available: ${status.state.message}`
            : 'gitmem is still opening the workspace',
          { state: status.state },
        );
      return session;
    },
    at(uri) {
      const s = session;
      if (!s?.model.loaded) return undefined;
      const path = s.paths.toPath(uri);
      return path ? { s, path } : undefined;
    },
    uriOf: (s, path) => uriOf(documents, s.paths, path),
    openPaths: (s) => openPaths(documents, s.paths),
    reboot: () => void boot(),
  };

  // ---------------------------------------------------------------------------------------------
  // Lifecycle

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    caps = params.capabilities;
    initOptions = (params.initializationOptions ?? {}) as InitializationOptions;
    rootFolder =
      folderOf(params.workspaceFolders?.[0]?.uri) ?? folderOf(params.rootUri) ?? params.rootPath ?? undefined;
    // Answer at once (B31): opening and indexing the workspace happen after `initialized`.
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['[', ':', ' ', ',', '/', '-'], resolveProvider: false },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Refactor] },
        renameProvider: { prepareProvider: true },
        workspace: {
          workspaceFolders: { supported: false },
          fileOperations: { willRename: { filters: WILL_RENAME_FILTERS } },
        },
      },
      serverInfo: { name: SERVER_NAME, ...(deps.version ? { version: deps.version } : {}) },
    };
  });

  connection.onInitialized(() => {
    t0.initialized = performance.now();
    // One source of file events (B30): the client's watcher, registered here when the client can;
    // otherwise boot() starts the server's own watcher (file-watch.ts).
    if (caps.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: '**/*.md' }, { globPattern: `**/${CONFIG_FILE}` }],
        })
        .catch((e) => log.warn(`could not register file watchers: ${(e as Error).message}`));
    }
    void boot();
  });

  connection.onShutdown(async () => {
    await dispose();
  });

  async function boot(): Promise<void> {
    const previous = session;
    session = undefined;
    const oldWatcher = serverWatcher;
    serverWatcher = undefined;
    await oldWatcher?.close().catch(() => undefined);
    const oldDreams = dreams;
    dreams = undefined;
    await oldDreams?.stop().catch(() => undefined);
    const oldHost = oneShot;
    oneShot = undefined;
    await oldHost?.close().catch(() => undefined);
    await previous?.memory.dispose().catch(() => undefined);
    if (!rootFolder) {
      status.set({ state: 'error', message: 'no workspace folder: open a folder to use gitmem' });
      resolveReady();
      return;
    }
    status.set({ state: 'starting', message: 'opening workspace' });
    let progress: WorkDoneProgressServerReporter | undefined;
    try {
      const platform = await deps.openWorkspace(rootFolder, initOptions);
      const overlay = createOverlayFs(platform.fs);
      const paths = new PathMapper(rootFolder, platform.fs.root);
      for (const d of documents.all()) {
        const p = confinedPath(paths, overlay.root, d.uri);
        if (p) overlay.set(p, d.getText());
      }
      const memory = await createMemory({ ...platform, fs: overlay, freshness: 'manual', logger: log });
      const model = new EditorModel(memory, overlay, () => clock.now());
      const s: Session = { memory, overlay, model, platform, paths, indexed: false };
      session = s;
      // The Memory's one change queue, with the HEAD check, from before the first build (index-updates.ts).
      await updates.attach(s);
      status.watchSource = chooseWatchSource(
        caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
        platform.createWatcher,
      );
      if (status.watchSource === 'server' && platform.createWatcher && !disposed) {
        serverWatcher = startServerWatcher(
          platform.createWatcher,
          memory.watchOptions(),
          (b) => void onServerBatch(b),
          log,
        );
      }
      diagnostics.clearConfigDiagnostic();
      if (caps.window?.workDoneProgress) {
        progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
        progress?.begin('gitmem: indexing memory', 0, 'reading files', false);
      }
      // Recall first (a persisted index only needs the files hashed), then the parsed model behind
      // diagnostics, hover and completion (it reuses the Memory's parse cache after a build).
      status.set({ state: 'indexing', message: 'building the recall index' });
      const tIndex = performance.now();
      // Vectors are embedded after `ready` by the background catch-up (engine/vectors/vector-catchup.ts):
      // recall answers from the keyword index at once, and the status counts the chunks left.
      const catchUp = memory.context.freshness.catchUp;
      catchUp?.onProgress(({ done, total }) => {
        // Done is said by the `vectors` event below, once the run is over and saved.
        if (session === s && s.indexed && done < total) status.vectorsProgress(total - done);
      });
      let caughtUp: { pending: number; vectors: number | null; degraded: string | null } | undefined;
      memory.onDidChange((e) => {
        if (e.reason !== 'vectors' || session !== s) return;
        const degraded = memory.context.semantic?.unavailable ?? null;
        caughtUp = { pending: e.vectorsPending, vectors: degraded ? null : (e.vectors ?? null), degraded };
        // New stored vectors: the open documents' near-duplicates by meaning, before the status says so.
        diagnostics.publishOpen(s);
        if (s.indexed) status.vectorsProgress(caughtUp.pending, caughtUp);
      });
      // Edits of open buffers come one per pause in typing: the index is saved a second after the
      // last one, not after each (B47); disposing the Memory saves what is left.
      memory.context.freshness.live.deferSaves(1000);
      const rep = await memory.index({
        background: true,
        onProgress: (phase, done, total) => {
          if (phase === 'embed') return; // after ready: the status above counts it
          if (total > 0) progress?.report(Math.round((done / total) * 50), `${phase} ${done}/${total}`);
        },
      });
      if (disposed || session !== s) return;
      const indexMs = performance.now() - tIndex;
      s.indexed = true;
      status.set({
        state: 'indexing',
        message: 'reading memory files for diagnostics',
        files: rep.files,
        chunks: rep.chunks,
      });
      const tLoad = performance.now();
      let last = 0;
      await model.load((done, total) => {
        const now = performance.now();
        if (now - last < 200 && done !== total) return;
        last = now;
        progress?.report(50 + Math.round((done / Math.max(total, 1)) * 50), `reading ${done}/${total} files`);
      });
      if (disposed || session !== s) return;
      const loadMs = performance.now() - tLoad;
      // Buffers opened while the workspace was opening (editors send didOpen right after
      // `initialized`) arrived before this session existed, or were read from disk by the index:
      // their text is what the model and recall hold (E13).
      for (const d of documents.all()) {
        const p = confinedPath(paths, overlay.root, d.uri);
        if (!p) continue;
        overlay.set(p, d.getText());
        if (model.kindOf(p) && model.update(p, d.getText()).changed) updates.schedule(p, 'changed');
      }
      diagnostics.publishAll(s);
      // The open documents' cited code, checked in the background (code-checks.ts).
      codeChecks.schedule(openPaths(documents, paths));
      const ms = Math.round(performance.now() - t0.initialized);
      status.set(status.readyAfter(rep));
      // A catch-up that finished while the model loaded: the status says so, not the count at index time.
      if (rep.vectors.background && caughtUp && !catchUp?.busy) status.vectorsProgress(caughtUp.pending, caughtUp);
      toClient(() =>
        connection.sendNotification(ReadyNotification, {
          files: rep.files,
          chunks: rep.chunks,
          ms,
          source: rep.source,
        }),
      );
      if (updates.queued) void updates.flush(); // events that arrived during the first build
      dreams = startDreams(ctx, s); // as `gitmem watch` runs them (off unless configured)
      if (deps.serveOneShot)
        oneShot = await deps.serveOneShot(memory, platform, () => oneShotDeclines(s, () => session));
      log.info(
        `gitmem: ${rep.files} files, ${rep.chunks} chunks ready in ${ms} ms (index ${rep.source} in ${indexMs.toFixed(0)} ms, read and parse ${loadMs.toFixed(0)} ms)`,
      );
    } catch (e) {
      log.error(`gitmem: cannot open the workspace: ${(e as Error)?.stack ?? e}`);
      status.set({ state: 'error', message: (e as Error)?.message ?? String(e) });
      if (isMemoryError(e, 'config.invalid') && rootFolder) diagnostics.publishConfigError(rootFolder, e.message);
    } finally {
      progress?.done();
      resolveReady();
    }
  }

  async function dispose(): Promise<void> {
    if (disposed) return;
    disposed = true;
    updates.dispose();
    codeChecks.dispose();
    const w = serverWatcher;
    serverWatcher = undefined;
    await w?.close().catch(() => undefined);
    await dreams?.stop().catch(() => undefined);
    dreams = undefined;
    await oneShot?.close().catch(() => undefined);
    oneShot = undefined;
    await session?.memory.dispose().catch(() => undefined);
  }

  // ---------------------------------------------------------------------------------------------
  // Document sync, language features, gitmem/* requests: one module each.

  const onServerBatch = registerDocumentSync(ctx);
  registerCompletion(ctx);
  registerHover(ctx);
  registerDefinition(ctx);
  registerReferences(ctx);
  registerDocumentSymbols(ctx);
  registerWorkspaceSymbols(ctx);
  registerCodeActions(ctx);
  registerCodeDiff(ctx);
  registerRenameHandlers(connection, {
    at(uri) {
      const a = ctx.at(uri);
      return a ? { model: a.s.model, paths: a.s.paths, path: a.path } : undefined;
    },
    uriOf: (path) => (session ? ctx.uriOf(session, path) : path),
    logError: (m) => log.error(m),
  });
  registerRecall(ctx);
  registerCheckpoint(ctx);
  registerSnapshot(ctx);
  registerRemember(ctx);
  registerStatus(ctx);
  registerReviewHandlers(connection, () => {
    const s = session;
    if (!s) return undefined;
    return {
      memory: s.memory,
      git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
      model: s.model,
      changed: (paths) => {
        for (const p of paths) {
          const rel = s.paths.toPath(s.paths.toUri(p as RelPath));
          if (rel && s.overlay.get(rel) === undefined)
            void s.model.reload(rel).then(
              (r) => r.changed && updates.schedule(rel, 'changed'),
              () => undefined,
            );
        }
      },
    };
  });

  documents.listen(connection);

  return {
    ready,
    status: () => status.state,
    updates: () => updates.count,
    dispose,
  };
}
