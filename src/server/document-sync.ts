// Document sync and file events. Unsaved text overrides the disk until the document closes (the
// overlay); edits, saves and closes update the editor model, republish diagnostics and queue index
// updates. File events come from one source per session (the client's didChangeWatchedFiles or the
// server's own watcher, file-watch.ts) and are handled the same way. deps: core, editor (types), vscode-languageserver.
import { FileChangeType } from 'vscode-languageserver/node.js';
import { CONFIG_FILE } from '../core/config.js';
import type { RelPath } from '../core/paths.js';
import { Debouncer } from '../core/debounce.js';
import type { FileChangeBatch } from '../core/ports.js';
import type { SettledUpdate } from '../editor/model.js';
import type { ServerContext } from './context.js';
import { confinedPath } from './open-documents.js';
import type { Session } from './session.js';

/** Quiet time after the last keystroke before a buffer is parsed and diagnosed, in ms. */
const EDIT_QUIET_MS = 120;
/** Longest continuous typing holds diagnostics back, in ms. */
const EDIT_MAX_WAIT_MS = 1500;

/**
 * Register document sync and `workspace/didChangeWatchedFiles` on the context's connection.
 * @returns the handler for batches from the server's own watcher.
 */
export function registerDocumentSync(ctx: ServerContext): (batch: FileChangeBatch) => Promise<void> {
  const { documents, connection, log, status, updates, diagnostics } = ctx;

  documents.onDidChangeContent(({ document }) => {
    const s = ctx.session();
    if (!s) return; // boot() copies open documents into the overlay
    const path = s.paths.toPath(document.uri);
    if (!path) return;
    // A buffer reached through a symlink out of the workspace stays out of the model (E04).
    if (!confinedPath(s.paths, s.overlay.root, document.uri)) {
      refuseOutside(document.uri, path);
      return;
    }
    s.overlay.set(path, document.getText());
    if (!s.model.loaded) return;
    // Parsing and validating a big buffer on every keystroke stalls the server (E06): the model
    // parses a burst once, when typing pauses or when a request reads the model.
    if (!settling.has(s.model)) {
      settling.add(s.model);
      s.model.onSettle((done) => settled(s, done));
    }
    s.model.defer(path, document.getText());
    edits.schedule();
  });

  const settling = new WeakSet<Session['model']>();
  const edits = new Debouncer(() => ctx.session()?.model.settle(), {
    delayMs: EDIT_QUIET_MS,
    maxWaitMs: EDIT_MAX_WAIT_MS,
    unref: true,
  });

  /** Buffers the model parsed: publish their diagnostics, queue their index updates. */
  function settled(s: Session, done: readonly SettledUpdate[]): void {
    const affected = new Set<RelPath>();
    for (const u of done) {
      if (u.error !== undefined) {
        log.error(`gitmem: could not update ${u.path}: ${(u.error as Error)?.stack ?? u.error}`);
        continue;
      }
      for (const p of u.affected) affected.add(p);
      // Opened or edited: its cited code is checked again in the background (code-checks.ts).
      if (s.model.kindOf(u.path)) ctx.codeChecks.schedule([u.path]);
      // Live text: unsaved edits reach recall after the same quiet period as saves (the overlay
      // serves the buffer to the index). Opening a document changes nothing, so it queues nothing.
      if (u.changed && s.model.kindOf(u.path)) {
        liveQueued.set(u.path, u.text);
        updates.schedule(u.path, 'changed');
      }
    }
    if (ctx.session() === s) diagnostics.publish(s, [...affected]);
  }

  /** URIs already refused by {@link refuseOutside} (one warning per document). */
  const refused = new Set<string>();
  function refuseOutside(uri: string, path: RelPath): void {
    if (refused.has(uri)) return;
    refused.add(uri);
    const m = `gitmem: ${path} leads outside the workspace through a symlink; gitmem does not read, index or edit it`;
    log.warn(m);
    try {
      connection.window.showWarningMessage(m);
    } catch {
      // the connection is closing
    }
  }

  /** path → the buffer text last queued by an edit: saving that same text needs no second update. */
  const liveQueued = new Map<RelPath, string>();

  documents.onDidSave(({ document }) => {
    const s = ctx.session();
    const path = s?.paths.toPath(document.uri);
    if (!path || !s?.model.kindOf(path)) return;
    s.model.settle(); // the saved text's own update, if typing had not paused yet
    ctx.codeChecks.schedule([path]); // the code may have changed meanwhile
    if (liveQueued.get(path) === document.getText()) {
      liveQueued.delete(path);
      return;
    }
    updates.schedule(path, 'changed');
  });

  documents.onDidClose(({ document }) => {
    refused.delete(document.uri);
    const s = ctx.session();
    if (!s) return;
    const path = s.paths.toPath(document.uri);
    if (!path) return;
    ctx.codeChecks.closed(s, path);
    const wasOpen = s.overlay.delete(path);
    if (!wasOpen || !s.model.loaded) return;
    void s.model
      .reload(path)
      .then((res) => {
        // Diagnostics stay on the closed file (it is still memory); near-duplicates go with the editor.
        diagnostics.publish(s, [...new Set([path, ...res.affected])]);
        if (res.changed) updates.schedule(path, 'changed');
      })
      .catch((e) => log.error(`gitmem: reload ${path} failed: ${(e as Error)?.message ?? e}`));
  });

  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    const s = ctx.session();
    // The server's own watcher is the one source of file events when it runs (no double handling).
    if (!s || !Array.isArray(changes) || status.watchSource === 'server') return;
    status.eventSeen();
    const events: { path: RelPath; type: FileChangeType }[] = [];
    for (const c of changes) {
      const path = s.paths.toPath(c.uri);
      if (path) events.push({ path, type: c.type });
    }
    await applyFileEvents(s, events);
  });

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
        updates.schedule(path, kind);
        continue;
      }
      // An open document's buffer wins over the disk; the save itself schedules the update.
      if (c.type !== FileChangeType.Deleted && s.overlay.get(path) !== undefined) continue;
      try {
        const res = c.type === FileChangeType.Deleted ? s.model.remove(path) : await s.model.reload(path);
        if (res.changed) updates.schedule(path, kind);
        for (const p of res.affected) affected.add(p);
      } catch (e) {
        log.error(`gitmem: could not read ${path}: ${(e as Error)?.message ?? e}`);
      }
    }
    if (configChanged) {
      log.info(`gitmem: ${CONFIG_FILE} changed; reopening the workspace`);
      ctx.reboot();
      return;
    }
    diagnostics.publish(s, [...affected]);
  }

  /** A batch from the server's own watcher: the same handling as the client's notifications. */
  return async (b: FileChangeBatch): Promise<void> => {
    const s = ctx.session();
    if (!s || status.watchSource !== 'server') return;
    status.eventSeen();
    const events = [
      ...b.created.map((path) => ({ path, type: FileChangeType.Created as FileChangeType })),
      ...b.changed.map((path) => ({ path, type: FileChangeType.Changed as FileChangeType })),
      ...b.deleted.map((path) => ({ path, type: FileChangeType.Deleted as FileChangeType })),
    ];
    await applyFileEvents(s, events).catch((e) => log.error(`gitmem: file events failed: ${(e as Error)?.stack ?? e}`));
  };
}
