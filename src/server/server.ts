// The language server over any connection: capabilities, the session lifecycle (initialize answers
// at once; the workspace opens and indexes after `initialized`, in the background), document sync
// into the service overlay, and handler wiring. Handlers translate; behaviour lives in service/.
// deps: service, protocol, core (types), vscode-languageserver, vscode-languageserver-textdocument.
import {
  CancellationToken,
  CodeActionKind,
  CompletionItemKind,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  LSPErrorCodes,
  MarkupKind,
  ResponseError,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type DocumentSymbol,
  type InitializeParams,
  type InitializeResult,
  type Location,
  type SymbolInformation,
  type TextEdit,
  type WorkDoneProgressServerReporter,
  type WorkspaceEdit,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { isMemoryError } from '../core/errors.js';
import type { RelPath } from '../core/paths.js';
import type { Clock, FileChangeBatch, FileWatcher, Logger, MemoryFs, WatcherFactory } from '../core/ports.js';
import { systemClock } from '../core/ports.js';
import { range as coreRange } from '../core/position.js';
import { EditorModel, type DocPreview, type EditorAction, type HeadingSymbol } from '../service/editor.js';
import { checkpointMemory, diffMemory, requireRevision } from '../service/git-ops/git-ops.js';
import { createMemory, type Memory, type MemoryDeps } from '../service/memory.js';
import { createOverlayFs, type OverlayFs } from '../service/overlay.js';
import { createStateService } from '../service/state/state.js';
import {
  CheckpointRequest,
  DocumentsRequest,
  GetStatusRequest,
  MemoryDiffRequest,
  ReadyNotification,
  RecallRequest,
  ReindexRequest,
  RememberRequest,
  SnapshotRequest,
  StatusNotification,
  type CheckpointResult,
  type Freshness,
  type InitializationOptions,
  type MemoryDiffResult,
  type RecallParams,
  type RecallResult,
  type SnapshotResult,
  type StatusParams,
} from '../protocol/requests.js';
import { chooseWatchSource, startServerWatcher, type WatchSource } from './file-watch.js';
import { PathMapper, folderOf, toLspDiagnostic, toLspRange, toResponseError } from './convert.js';
import { registerRenameHandlers, WILL_RENAME_FILTERS } from './handlers/rename.js';
import { registerReviewHandlers } from './handlers/review.js';

/** The platform half of a workspace, built by the process entry (server/main.ts) or a test. */
export interface WorkspacePlatform extends Omit<MemoryDeps, 'fs' | 'freshness' | 'logger'> {
  readonly fs: MemoryFs;
  readonly workTree?: string | undefined;
  /**
   * Makes the server's own file watcher (platform/watcher.ts, as `gitmem watch` uses), started only
   * when the client cannot register one. Without it such a client gets no disk events.
   */
  readonly createWatcher?: WatcherFactory;
}

export interface ServerDeps {
  /** Open the workspace folder `root` (absolute): file system, index storage, git location, model. */
  openWorkspace(root: string, options: InitializationOptions): Promise<WorkspacePlatform>;
  readonly clock?: Clock;
  readonly version?: string;
  /** Quiet period before file events and saves re-index (default 200 ms). */
  readonly reindexDelayMs?: number;
}

export interface LanguageServer {
  /** Settles when the first index build finished (or failed). */
  readonly ready: Promise<void>;
  /** Current status (also sent as `gitmem/status`). */
  status(): StatusParams;
  /** Number of completed index updates after the first build (tests: one save, one update). */
  updates(): number;
  dispose(): Promise<void>;
}

interface Session {
  readonly memory: Memory;
  readonly overlay: OverlayFs;
  readonly model: EditorModel;
  readonly platform: WorkspacePlatform;
  readonly paths: PathMapper;
  indexed: boolean;
}

const SERVER_NAME = 'gitmem';
const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
/** Let queued messages ($/cancelRequest, newer edits) run before starting work. */
const tick = () => new Promise<void>((r) => setImmediate(r));

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
  let state: StatusParams = { state: 'starting' };
  let updateCount = 0;
  let disposed = false;
  // One source of file events per session (client or server watcher): see file-watch.ts.
  let watchSource: WatchSource = 'none';
  let serverWatcher: FileWatcher | undefined;
  let lastEventAt: string | null = null;
  let lastUpdateAt: string | null = null;
  let inFlight = 0;
  /** uri → JSON of the diagnostics last sent, so unchanged sets are not re-sent. */
  const published = new Map<string, string>();
  const errorCounts = new Map<string, number>();
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const t0 = { initialized: 0 };

  const log: Logger = {
    debug: (m) => {
      if (initOptions.debug) connection.console.log(m);
    },
    info: (m) => connection.console.info(m),
    warn: (m) => connection.console.warn(m),
    error: (m) => connection.console.error(m),
  };

  function setStatus(next: StatusParams): void {
    state = next;
    void connection.sendNotification(StatusNotification, next).catch(() => undefined);
  }

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
    await previous?.memory.dispose().catch(() => undefined);
    if (!rootFolder) {
      setStatus({ state: 'error', message: 'no workspace folder: open a folder to use gitmem' });
      resolveReady();
      return;
    }
    setStatus({ state: 'starting', message: 'opening workspace' });
    let progress: WorkDoneProgressServerReporter | undefined;
    try {
      const platform = await deps.openWorkspace(rootFolder, initOptions);
      const overlay = createOverlayFs(platform.fs);
      const paths = new PathMapper(rootFolder, platform.fs.root);
      for (const d of documents.all()) {
        const p = paths.toPath(d.uri);
        if (p) overlay.set(p, d.getText());
      }
      const memory = await createMemory({ ...platform, fs: overlay, freshness: 'manual', logger: log });
      const model = new EditorModel(memory, overlay, () => clock.now());
      const s: Session = { memory, overlay, model, platform, paths, indexed: false };
      session = s;
      watchSource = chooseWatchSource(
        caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
        platform.createWatcher,
      );
      if (watchSource === 'server' && platform.createWatcher && !disposed) {
        serverWatcher = startServerWatcher(
          platform.createWatcher,
          memory.watchOptions(),
          (b) => void onServerBatch(b),
          log,
        );
      }
      clearConfigDiagnostic(paths);
      if (caps.window?.workDoneProgress) {
        progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
        progress?.begin('gitmem: indexing memory', 0, 'reading files', false);
      }
      // Recall first (a persisted index only needs the files hashed), then the parsed model behind
      // diagnostics, hover and completion (it reuses the Memory's parse cache after a build).
      setStatus({ state: 'indexing', message: 'building the recall index' });
      const tIndex = performance.now();
      const rep = await memory.index({
        onProgress: (phase, done, total) => {
          if (total > 0) progress?.report(Math.round((done / total) * 50), `${phase} ${done}/${total}`);
        },
      });
      if (disposed || session !== s) return;
      const indexMs = performance.now() - tIndex;
      s.indexed = true;
      setStatus({
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
      publishAll(s);
      const ms = Math.round(performance.now() - t0.initialized);
      setStatus(
        readyStatus(rep.files, rep.chunks, rep.vectors.unavailable ? null : rep.vectors.total, rep.vectors.unavailable),
      );
      void connection
        .sendNotification(ReadyNotification, { files: rep.files, chunks: rep.chunks, ms, source: rep.source })
        .catch(() => undefined);
      if (pending.size) void flushUpdates(); // events that arrived during the first build
      log.info(
        `gitmem: ${rep.files} files, ${rep.chunks} chunks ready in ${ms} ms (index ${rep.source} in ${indexMs.toFixed(0)} ms, read and parse ${loadMs.toFixed(0)} ms)`,
      );
    } catch (e) {
      log.error(`gitmem: cannot open the workspace: ${(e as Error)?.stack ?? e}`);
      setStatus({ state: 'error', message: (e as Error)?.message ?? String(e) });
      if (isMemoryError(e, 'config.invalid') && rootFolder) publishConfigError(e.message);
    } finally {
      progress?.done();
      resolveReady();
    }
  }

  function readyStatus(files: number, chunks: number, vectors: number | null, degraded: string | null): StatusParams {
    lastUpdateAt = clock.now().toISOString();
    return {
      state: 'ready',
      files,
      chunks,
      vectors,
      degraded,
      indexedAt: clock.now().toISOString(),
      message: `${files} files, ${chunks} chunks`,
    };
  }

  // gitmem.config.json that does not validate: one diagnostic on the file, retried when it changes.
  let configUri: string | undefined;
  function publishConfigError(message: string): void {
    configUri = new PathMapper(rootFolder!).toUri(CONFIG_FILE);
    void connection.sendDiagnostics({
      uri: configUri,
      diagnostics: [
        {
          range: toLspRange(coreRange(0, 0, 0, 1)),
          severity: 1,
          source: 'gitmem',
          code: 'memory.config.invalid',
          message,
        },
      ],
    });
  }
  function clearConfigDiagnostic(_paths: PathMapper): void {
    if (configUri) void connection.sendDiagnostics({ uri: configUri, diagnostics: [] });
    configUri = undefined;
  }

  async function dispose(): Promise<void> {
    if (disposed) return;
    disposed = true;
    if (timer) clearTimeout(timer);
    const w = serverWatcher;
    serverWatcher = undefined;
    await w?.close().catch(() => undefined);
    await session?.memory.dispose().catch(() => undefined);
  }

  // ---------------------------------------------------------------------------------------------
  // Diagnostics

  function openPaths(s: Session): Set<RelPath> {
    const out = new Set<RelPath>();
    for (const d of documents.all()) {
      const p = s.paths.toPath(d.uri);
      if (p) out.add(p);
    }
    return out;
  }

  function uriOf(s: Session, path: RelPath): string {
    for (const d of documents.all()) if (s.paths.toPath(d.uri) === path) return d.uri;
    return s.paths.toUri(path);
  }

  function send(s: Session, byPath: Map<RelPath, Diagnostic[]>): void {
    for (const [path, diags] of byPath) {
      const uri = uriOf(s, path);
      const lsp = diags.map(toLspDiagnostic);
      const key = JSON.stringify(lsp);
      const before = published.get(uri);
      errorCounts.set(path, diags.filter((d) => d.severity === 'error').length);
      if (before === key || (before === undefined && lsp.length === 0)) continue;
      published.set(uri, key);
      const doc = documents.get(uri);
      void connection
        .sendDiagnostics({ uri, ...(doc ? { version: doc.version } : {}), diagnostics: lsp })
        .catch(() => undefined);
    }
  }

  function publish(s: Session, paths: readonly RelPath[]): void {
    if (!s.model.loaded || paths.length === 0) return;
    send(s, s.model.diagnostics(paths, openPaths(s)));
  }

  /** Every document's diagnostics; clears files that had some and are gone. */
  function publishAll(s: Session): void {
    const all = s.model.diagnostics(undefined, openPaths(s));
    const uris = new Set([...all.keys()].map((p) => uriOf(s, p)));
    for (const uri of [...published.keys()]) {
      if (!uris.has(uri) && uri !== configUri) {
        published.delete(uri);
        void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
      }
    }
    send(s, all);
  }

  // ---------------------------------------------------------------------------------------------
  // Index updates. File events, saves and closes of edited documents queue their paths; after a quiet
  // period the queue goes to Memory.applyChanges as one batch (incremental: only those files are
  // re-read, re-chunked and re-embedded). One save → one update (B30); unchanged content never
  // queues (the model compares content hashes first). `gitmem/reindex` reconciles everything.

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  const pending = new Map<RelPath, 'created' | 'changed' | 'deleted'>();
  function scheduleUpdate(path: RelPath, kind: 'created' | 'changed' | 'deleted'): void {
    if (disposed) return;
    const prev = pending.get(path);
    pending.set(path, prev === 'created' && kind === 'changed' ? 'created' : kind);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void flushUpdates();
    }, deps.reindexDelayMs ?? 200);
  }

  async function flushUpdates(): Promise<void> {
    const s = session;
    if (!s || !s.indexed || pending.size === 0) return; // boot() re-queues after the first build
    if (running) {
      await running;
      return flushUpdates();
    }
    const batch = { created: [] as RelPath[], changed: [] as RelPath[], deleted: [] as RelPath[] };
    for (const [path, kind] of pending) batch[kind].push(path);
    pending.clear();
    inFlight = batch.created.length + batch.changed.length + batch.deleted.length;
    running = (async () => {
      try {
        setStatus({
          ...state,
          state: 'indexing',
          message: `updating ${batch.created.length + batch.changed.length + batch.deleted.length} file(s)`,
        });
        const ev = await s.memory.applyChanges(batch);
        if (session !== s) return;
        updateCount++;
        for (const f of ev.failed) log.warn(`gitmem: could not index ${f.path}: ${f.reason}`);
        setStatus({ ...readyStatus(s.model.workspace.size, ev.chunks, state.vectors ?? null, state.degraded ?? null) });
      } catch (e) {
        log.error(`gitmem: index update failed: ${(e as Error)?.stack ?? e}`);
        setStatus({ ...state, state: 'error', message: (e as Error)?.message ?? String(e) });
      } finally {
        running = undefined;
        inFlight = 0;
      }
    })();
    await running;
  }

  /** Full reconcile (gitmem/reindex): every file hashed against the index, file list refreshed. */
  async function reindex(rebuild = false): Promise<void> {
    const s = session;
    if (!s || !s.indexed) return;
    while (running) await running;
    running = (async () => {
      try {
        setStatus({ ...state, state: 'indexing', message: 'updating the recall index' });
        const rep = await s.memory.index(rebuild ? { rebuild: true } : {});
        await s.model.refreshFileList();
        if (session !== s) return;
        updateCount++;
        publishAll(s);
        setStatus(
          readyStatus(
            rep.files,
            rep.chunks,
            rep.vectors.unavailable ? null : rep.vectors.total,
            rep.vectors.unavailable,
          ),
        );
      } catch (e) {
        log.error(`gitmem: index update failed: ${(e as Error)?.stack ?? e}`);
        setStatus({ ...state, state: 'error', message: (e as Error)?.message ?? String(e) });
      } finally {
        running = undefined;
      }
    })();
    await running;
  }

  // ---------------------------------------------------------------------------------------------
  // Document sync: unsaved text overrides the disk until the document closes

  documents.onDidChangeContent(({ document }) => {
    const s = session;
    if (!s) return; // boot() copies open documents into the overlay
    const path = s.paths.toPath(document.uri);
    if (!path) return;
    s.overlay.set(path, document.getText());
    if (!s.model.loaded) return;
    try {
      const res = s.model.update(path, document.getText());
      publish(s, res.affected);
      // Live text: unsaved edits reach recall after the same quiet period as saves (the overlay
      // serves the buffer to the index). Opening a document changes nothing, so it queues nothing.
      if (res.changed && s.model.kindOf(path)) {
        liveQueued.set(path, document.getText());
        scheduleUpdate(path, 'changed');
      }
    } catch (e) {
      log.error(`gitmem: could not update ${path}: ${(e as Error)?.stack ?? e}`);
    }
  });

  /** path → the buffer text last queued by an edit: saving that same text needs no second update. */
  const liveQueued = new Map<RelPath, string>();

  documents.onDidSave(({ document }) => {
    const path = session?.paths.toPath(document.uri);
    if (!path || !session?.model.kindOf(path)) return;
    if (liveQueued.get(path) === document.getText()) {
      liveQueued.delete(path);
      return;
    }
    scheduleUpdate(path, 'changed');
  });

  documents.onDidClose(({ document }) => {
    const s = session;
    if (!s) return;
    const path = s.paths.toPath(document.uri);
    if (!path) return;
    const wasOpen = s.overlay.delete(path);
    if (!wasOpen || !s.model.loaded) return;
    void s.model
      .reload(path)
      .then((res) => {
        // Diagnostics stay on the closed file (it is still memory); near-duplicates go with the editor.
        publish(s, [...new Set([path, ...res.affected])]);
        if (res.changed) scheduleUpdate(path, 'changed');
      })
      .catch((e) => log.error(`gitmem: reload ${path} failed: ${(e as Error)?.message ?? e}`));
  });

  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    const s = session;
    // The server's own watcher is the one source of file events when it runs (no double handling).
    if (!s || !Array.isArray(changes) || watchSource === 'server') return;
    lastEventAt = clock.now().toISOString();
    const events: { path: RelPath; type: FileChangeType }[] = [];
    for (const c of changes) {
      const path = s.paths.toPath(c.uri);
      if (path) events.push({ path, type: c.type });
    }
    await applyFileEvents(s, events);
  });

  /** A batch from the server's own watcher: the same handling as the client's notifications. */
  async function onServerBatch(b: FileChangeBatch): Promise<void> {
    const s = session;
    if (!s || watchSource !== 'server') return;
    lastEventAt = clock.now().toISOString();
    const events = [
      ...b.created.map((path) => ({ path, type: FileChangeType.Created as FileChangeType })),
      ...b.changed.map((path) => ({ path, type: FileChangeType.Changed as FileChangeType })),
      ...b.deleted.map((path) => ({ path, type: FileChangeType.Deleted as FileChangeType })),
    ];
    await applyFileEvents(s, events).catch((e) => log.error(`gitmem: file events failed: ${(e as Error)?.stack ?? e}`));
  }

  function freshness(): Freshness {
    return { watcher: watchSource, lastEventAt, lastUpdateAt, pending: pending.size + inFlight };
  }

  /** File changes on disk (from the one watch source): reload the model, queue index updates. */
  async function applyFileEvents(
    s: Session,
    changes: readonly { path: RelPath; type: FileChangeType }[],
  ): Promise<void> {
    let configChanged = false;
    const affected = new Set<RelPath>();
    for (const c of changes) {
      const path = c.path;
      if (path === CONFIG_FILE) {
        configChanged = true;
        continue;
      }
      if (!s.model.kindOf(path)) {
        s.model.touchFile(path, c.type !== FileChangeType.Deleted);
        continue;
      }
      const kind =
        c.type === FileChangeType.Created ? 'created' : c.type === FileChangeType.Deleted ? 'deleted' : 'changed';
      if (!s.model.loaded) {
        scheduleUpdate(path, kind);
        continue;
      }
      // An open document's buffer wins over the disk; the save itself schedules the update.
      if (c.type !== FileChangeType.Deleted && s.overlay.get(path) !== undefined) continue;
      try {
        const res = c.type === FileChangeType.Deleted ? s.model.remove(path) : await s.model.reload(path);
        if (res.changed) scheduleUpdate(path, kind);
        for (const p of res.affected) affected.add(p);
      } catch (e) {
        log.error(`gitmem: could not read ${path}: ${(e as Error)?.message ?? e}`);
      }
    }
    if (configChanged) {
      log.info(`gitmem: ${CONFIG_FILE} changed; reopening the workspace`);
      void boot();
      return;
    }
    publish(s, [...affected]);
  }

  // ---------------------------------------------------------------------------------------------
  // Language features

  /** The session and path of a request's document, when the model can answer. */
  function at(uri: string): { s: Session; path: RelPath } | undefined {
    const s = session;
    if (!s?.model.loaded) return undefined;
    const path = s.paths.toPath(uri);
    return path ? { s, path } : undefined;
  }

  function guard<P, R>(name: string, fallback: R, fn: (p: P, token: CancellationToken) => Promise<R> | R) {
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

  connection.onCompletion(
    guard(
      'completion',
      null,
      async (p: { textDocument: { uri: string }; position: { line: number; character: number } }, token) => {
        await tick();
        if (token.isCancellationRequested) throw cancelled();
        const a = at(p.textDocument.uri);
        if (!a) return null;
        const res = a.s.model.complete(a.path, p.position, () => token.isCancellationRequested);
        if (token.isCancellationRequested) throw cancelled();
        const kinds = {
          enum: CompletionItemKind.EnumMember,
          tag: CompletionItemKind.Keyword,
          id: CompletionItemKind.Reference,
          file: CompletionItemKind.File,
          key: CompletionItemKind.Property,
        };
        const items: CompletionItem[] = res.items.map((i) => ({
          label: i.label,
          kind: kinds[i.kind],
          textEdit: { range: toLspRange(i.range), newText: i.insertText ?? i.label },
          ...(i.detail ? { detail: i.detail } : {}),
          ...(i.documentation ? { documentation: i.documentation } : {}),
          ...(i.sortText ? { sortText: i.sortText } : {}),
          filterText: i.label,
        }));
        return { isIncomplete: res.incomplete, items };
      },
    ),
  );

  connection.onHover(
    guard('hover', null, (p: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
      const a = at(p.textDocument.uri);
      if (!a) return null;
      const t = a.s.model.targetAt(a.path, p.position);
      if (!t) return null;
      let value: string;
      if (t.docs.length === 0) {
        value =
          t.kind === 'id'
            ? `**[[${t.id}]]**: no memory has this id or file name`
            : `\`${t.target}\`${t.path && a.s.model.codeFiles().includes(t.path) ? ' (code file)' : ': no such file'}`;
      } else {
        value = t.docs.map((d) => renderPreview(a.s.model.preview(d))).join('\n\n---\n\n');
        if (t.kind === 'id' && t.docs.length > 1)
          value = `⚠ ${t.docs.length} memories share the id \`${t.id}\`\n\n${value}`;
      }
      return { contents: { kind: MarkupKind.Markdown, value }, range: toLspRange(t.range) };
    }),
  );

  connection.onDefinition(
    guard(
      'definition',
      null,
      (p: { textDocument: { uri: string }; position: { line: number; character: number } }): Location[] | null => {
        const a = at(p.textDocument.uri);
        if (!a) return null;
        const t = a.s.model.targetAt(a.path, p.position);
        if (!t) return null;
        if (t.docs.length)
          return t.docs.map((d) => ({ uri: uriOf(a.s, d.path), range: toLspRange(a.s.model.declarationRange(d)) }));
        if (t.kind === 'path' && t.path && a.s.model.codeFiles().includes(t.path))
          return [{ uri: a.s.paths.toUri(t.path), range: toLspRange(coreRange(0, 0, 0, 0)) }];
        return null;
      },
    ),
  );

  connection.onReferences(
    guard(
      'references',
      null,
      async (
        p: {
          textDocument: { uri: string };
          position: { line: number; character: number };
          context?: { includeDeclaration?: boolean };
        },
        token,
      ) => {
        await tick();
        const a = at(p.textDocument.uri);
        if (!a) return null;
        const t = a.s.model.targetAt(a.path, p.position);
        const self = a.s.model.doc(a.path);
        // On a link: its targets; elsewhere in an entry (e.g. its title): the entry itself.
        const docs = t?.docs.length
          ? t.docs
          : self && (self.kind === 'entry' || self.kind === 'playbook')
            ? [self]
            : [];
        if (!docs.length) return [];
        const refs = a.s.model.references(docs, () => token.isCancellationRequested);
        if (token.isCancellationRequested) throw cancelled();
        const out: Location[] = refs.map((r) => ({ uri: uriOf(a.s, r.path), range: toLspRange(r.range) }));
        if (p.context?.includeDeclaration)
          for (const d of docs)
            out.unshift({ uri: uriOf(a.s, d.path), range: toLspRange(a.s.model.declarationRange(d)) });
        return out;
      },
    ),
  );

  connection.onDocumentSymbol(
    guard('documentSymbol', null, (p: { textDocument: { uri: string } }): DocumentSymbol[] | null => {
      const a = at(p.textDocument.uri);
      if (!a) return null;
      const conv = (h: HeadingSymbol): DocumentSymbol => ({
        name: h.name,
        detail: '#'.repeat(h.depth),
        kind: SymbolKind.String,
        range: toLspRange(h.range),
        selectionRange: toLspRange(h.selectionRange),
        children: h.children.map(conv),
      });
      return a.s.model.headings(a.path).map(conv);
    }),
  );

  connection.onWorkspaceSymbol(
    guard(
      'workspaceSymbol',
      [] as SymbolInformation[],
      async (p: { query: string }, token): Promise<SymbolInformation[]> => {
        await tick();
        if (token.isCancellationRequested) throw cancelled();
        const s = session;
        if (!s?.model.loaded) return [];
        const query = (p.query ?? '').trim();
        if (!query || !s.indexed) {
          // Empty query (or index still building): entries by id, filtered by the query text.
          const q = query.toLowerCase();
          return s.model
            .documents()
            .filter((d) => d.id && (!q || d.id.toLowerCase().includes(q) || (d.title ?? '').toLowerCase().includes(q)))
            .slice(0, 200)
            .map((d) => ({
              name: d.id!,
              kind: SymbolKind.Key,
              location: { uri: uriOf(s, d.path), range: toLspRange(coreRange(0, 0, 0, 0)) },
              containerName: d.path,
            }));
        }
        const res = await s.memory.recall(query, { mode: 'keyword', limit: 50 });
        if (token.isCancellationRequested) throw cancelled();
        return res.results.map((r) => ({
          name: r.entry?.id ?? r.headingPath[r.headingPath.length - 1] ?? r.path,
          kind: r.entry ? SymbolKind.Key : SymbolKind.String,
          location: {
            uri: uriOf(s, r.path as RelPath),
            range: toLspRange(coreRange(r.startLine - 1, 0, r.endLine - 1, 0)),
          },
          containerName: r.path,
        }));
      },
    ),
  );

  connection.onCodeAction(
    guard(
      'codeAction',
      null,
      (p: {
        textDocument: { uri: string };
        range: { start: { line: number; character: number }; end: { line: number; character: number } };
        context: { diagnostics: { code?: string | number; range: { start: { line: number } } }[] };
      }): CodeAction[] | null => {
        const a = at(p.textDocument.uri);
        if (!a) return null;
        const ours = a.s.model.diagnostics([a.path], openPaths(a.s)).get(a.path) ?? [];
        // Match the client's diagnostics by code and line, not by exact range: Neovim 0.7 sends byte columns.
        const wanted = ours.filter(
          (d) =>
            (d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line) ||
            (p.context?.diagnostics ?? []).some((c) => c.code === d.code && c.range.start.line === d.range.start.line),
        );
        const supportsCreate =
          caps.workspace?.workspaceEdit?.documentChanges === true &&
          (caps.workspace.workspaceEdit.resourceOperations ?? []).includes('create');
        return a.s.model
          .codeActions(a.path, p.range, wanted, clock.now())
          .filter((x) => !x.create || supportsCreate)
          .map((x) => toCodeAction(a.s, x));
      },
    ),
  );

  registerRenameHandlers(connection, {
    at(uri) {
      const a = at(uri);
      return a ? { model: a.s.model, paths: a.s.paths, path: a.path } : undefined;
    },
    uriOf: (path) => (session ? uriOf(session, path) : path),
    logError: (m) => log.error(m),
  });

  function toCodeAction(s: Session, x: EditorAction): CodeAction {
    let edit: WorkspaceEdit;
    if (x.create) {
      const createUri = s.paths.toUri(x.create.path);
      const rest = x.edits.filter((e) => e.path !== x.create!.path);
      edit = {
        documentChanges: [
          { kind: 'create', uri: createUri, options: { overwrite: false, ignoreIfExists: true } },
          {
            textDocument: { uri: createUri, version: null },
            edits: [{ range: toLspRange(coreRange(0, 0, 0, 0)), newText: x.create.text }],
          },
          ...group(rest).map(([path, edits]) => ({
            textDocument: { uri: uriOf(s, path), version: documents.get(uriOf(s, path))?.version ?? null },
            edits,
          })),
        ],
      };
    } else {
      edit = { changes: Object.fromEntries(group(x.edits).map(([path, edits]) => [uriOf(s, path), edits])) };
    }
    return {
      title: x.title,
      kind: x.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.Refactor + '.move',
      ...(x.diagnostic ? { diagnostics: [toLspDiagnostic(x.diagnostic)] } : {}),
      ...(x.isPreferred ? { isPreferred: true } : {}),
      edit,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // gitmem/* requests

  function need(): Session {
    if (!session)
      throw new ResponseError(
        LSPErrorCodes.ServerCancelled,
        state.state === 'error' ? `gitmem is not available: ${state.message}` : 'gitmem is still opening the workspace',
        { state },
      );
    return session;
  }

  connection.onRequest(RecallRequest, async (p: RecallParams, token): Promise<RecallResult> => {
    await tick();
    if (token.isCancellationRequested) throw cancelled();
    if (!p || typeof p.query !== 'string') throw new ResponseError(-32602, 'gitmem/recall needs {query: string}');
    const s = session;
    const mode = p.mode ?? 'hybrid';
    if (!s || !s.indexed) {
      // B31: during the first index build, answer with an empty, clearly partial result.
      return {
        query: p.query,
        mode,
        degraded: 'the memory index is still being built; results will appear when gitmem/ready arrives',
        tookMs: 0,
        results: [],
      };
    }
    try {
      const res = await s.memory.recall(p.query, {
        ...(p.mode ? { mode: p.mode } : {}),
        ...(p.limit !== undefined ? { limit: p.limit } : {}),
        ...(p.types ? { types: p.types } : {}),
        ...(p.tags ? { tags: p.tags } : {}),
        ...(p.kinds ? { kinds: p.kinds } : {}),
        ...(p.file ? { file: p.file } : {}),
        ...(typeof p.since === 'string' ? { since: p.since } : {}),
        ...(typeof p.until === 'string' ? { until: p.until } : {}),
      });
      if (token.isCancellationRequested) throw cancelled();
      return res as RecallResult;
    } catch (e) {
      throw toResponseError(e);
    }
  });

  connection.onRequest(CheckpointRequest, async (p): Promise<CheckpointResult> => {
    const s = need();
    try {
      const res = await checkpointMemory(
        s.memory,
        { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
        {
          ...(p?.message ? { message: p.message } : {}),
          ...(p?.reason ? { reason: p.reason } : {}),
          ...(p?.force ? { force: true } : {}),
        },
      );
      if (res.kind === 'nothing-to-commit') return { kind: 'nothing-to-commit', head: res.head };
      return {
        kind: 'committed',
        oid: res.oid,
        branch: res.branch,
        summary: res.summary,
        changes: {
          added: [...res.changes.added],
          modified: [...res.changes.modified],
          deleted: [...res.changes.deleted],
        },
      };
    } catch (e) {
      throw toResponseError(e);
    }
  });

  connection.onRequest(MemoryDiffRequest, async (p): Promise<MemoryDiffResult> => {
    const s = need();
    try {
      const from = requireRevision(p?.from);
      const res = await diffMemory(
        s.memory,
        { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
        from,
        p?.to ? requireRevision(p.to) : undefined,
      );
      return JSON.parse(JSON.stringify(res)) as MemoryDiffResult;
    } catch (e) {
      throw toResponseError(e);
    }
  });

  connection.onRequest(SnapshotRequest, async (): Promise<SnapshotResult> => {
    const s = need();
    try {
      // Reads through the overlay: an unsaved CURRENT_STATE.md buffer is what the snapshot shows.
      const svc = await createStateService({
        memory: s.memory,
        fs: s.overlay,
        clock,
        git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
      });
      const snap = await svc.snapshot();
      return {
        ...snap,
        path: svc.path,
        ...(snap.active ? {} : { reason: `${svc.path} holds no active working state` }),
      };
    } catch (e) {
      throw toResponseError(e);
    }
  });

  connection.onRequest(RememberRequest, async (p) => {
    const s = need();
    try {
      const res = await s.memory.remember({
        text: p?.text ?? '',
        ...(p?.type ? { type: p.type } : {}),
        ...(p?.tags ? { tags: p.tags } : {}),
        ...(p?.files ? { files: p.files } : {}),
        ...(p?.title ? { title: p.title } : {}),
        source: { origin: 'editor' },
      });
      if (res.status === 'created' && s.model.loaded) {
        const r = await s.model.reload(res.path as RelPath);
        publish(s, r.affected);
        scheduleUpdate(res.path as RelPath, 'created');
      }
      return res;
    } catch (e) {
      throw toResponseError(e);
    }
  });

  connection.onRequest(DocumentsRequest, () => {
    const s = session;
    if (!s?.model.loaded) return { documents: [] };
    return { documents: s.model.documents().map((d) => ({ ...d, errors: errorCounts.get(d.path) ?? 0 })) };
  });

  connection.onRequest(GetStatusRequest, () => (session ? { ...state, freshness: freshness() } : state));

  registerReviewHandlers(connection, () => {
    const s = session;
    if (!s) return undefined;
    return {
      memory: s.memory,
      fs: s.platform.fs,
      git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
      model: s.model,
      changed: (paths) => {
        for (const p of paths) {
          const rel = s.paths.toPath(s.paths.toUri(p as RelPath));
          if (rel && s.overlay.get(rel) === undefined)
            void s.model.reload(rel).then(
              (r) => r.changed && scheduleUpdate(rel, 'changed'),
              () => undefined,
            );
        }
      },
    };
  });

  connection.onRequest(ReindexRequest, async (p) => {
    need();
    await reindex(p?.rebuild === true);
    return state;
  });

  documents.listen(connection);

  return {
    ready,
    status: () => state,
    updates: () => updateCount,
    dispose,
  };
}

function group(
  edits: readonly { path: RelPath; range: Parameters<typeof toLspRange>[0]; newText: string }[],
): [RelPath, TextEdit[]][] {
  const m = new Map<RelPath, TextEdit[]>();
  for (const e of edits) m.set(e.path, [...(m.get(e.path) ?? []), { range: toLspRange(e.range), newText: e.newText }]);
  return [...m];
}

/** Markdown for a hover: title, type, tags, provenance, status, path, then the first lines. */
export function renderPreview(p: DocPreview): string {
  const head = `**${escapeMd(p.title ?? p.id ?? p.path)}**${p.id && p.title ? ` · \`${p.id}\`` : ''}`;
  const facts: string[] = [];
  facts.push(p.type ? `type \`${p.type}\`` : `kind \`${p.kind}\``);
  if (p.tags.length) facts.push(`tags ${p.tags.map((t) => `\`#${t}\``).join(' ')}`);
  if (p.status) facts.push(`status \`${p.status}\``);
  if (p.created) facts.push(`created ${p.created}`);
  const lines = [head, '', facts.join(' · ')];
  const src = Object.entries(p.source);
  if (src.length) lines.push('', `source: ${src.map(([k, v]) => `${k} \`${v}\``).join(' · ')}`);
  if (p.duplicateOf) lines.push('', `duplicate of \`${p.duplicateOf}\``);
  lines.push('', `\`${p.path}\``);
  if (p.excerpt) lines.push('', '---', '', p.excerpt);
  return lines.join('\n');
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}
