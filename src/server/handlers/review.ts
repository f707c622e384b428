// Language-server handlers of memory review and lineage (protocol/review.ts): the Memory Changes
// list, HEAD text for the diff editor, checkpoint of chosen files, discard, line lineage and the code
// files entries are about. Translation only; behaviour lives in service/review/memory-review.ts and service/git-ops/.
// deps: service, protocol, core, vscode-languageserver.
import type { Connection } from 'vscode-languageserver/node.js';
import type { EditorModel } from '../../editor/model.js';
import { memoryHistory, type GitLocation } from '../../service/git-ops/history.js';
import { withLineage } from '../../service/git-ops/lineage.js';
import type { Memory } from '../../service/memory.js';
import { checkpointFiles, discardChanges, headText, reviewChanges } from '../../service/review/memory-review.js';
import { approveReview } from '../../service/trust/review-queue.js';
import {
  CheckpointFilesRequest,
  DiscardRequest,
  FileLinksRequest,
  HeadTextRequest,
  LineageRequest,
  MemoryChangesRequest,
  type FileLinksResult,
  type LineageInfo,
  type LineageResult,
  type MemoryAboutFile,
  type MemoryChangesResult,
} from '../../protocol/review.js';
import type { CheckpointResult } from '../../protocol/requests.js';
import { toResponseError } from '../convert.js';
import { toCheckpointResult } from './checkpoint.js';

/** What the handlers need from the running session (undefined until the workspace is open). */
export interface ReviewSession {
  /** The workspace over the open-buffer overlay, whose writes and removals are the disk's: discards write there. */
  readonly memory: Memory;
  readonly git: GitLocation;
  readonly model: EditorModel;
  /** Called after a checkpoint or discard changed files on disk (re-index them). */
  changed(paths: readonly string[]): void;
}

function notReady(): never {
  throw toResponseError(new Error('the memory workspace is still opening'));
}

const wrap =
  <P, R>(fn: (p: P) => Promise<R>) =>
  async (p: P): Promise<R> => {
    try {
      return await fn(p);
    } catch (e) {
      throw toResponseError(e);
    }
  };

/** Register the review requests on `connection`. */
export function registerReviewHandlers(connection: Connection, session: () => ReviewSession | undefined): void {
  const need = () => session() ?? notReady();

  connection.onRequest(
    MemoryChangesRequest,
    wrap(async (): Promise<MemoryChangesResult> => {
      const s = need();
      const r = await reviewChanges(s.memory.context, { git: s.git });
      return { head: r.head, files: r.files.map((f) => ({ ...f })) };
    }),
  );

  connection.onRequest(
    HeadTextRequest,
    wrap(async (p: { path: string }) => {
      const s = need();
      return { text: (await headText(s.memory.context, { git: s.git, path: p.path })) ?? null };
    }),
  );

  connection.onRequest(
    CheckpointFilesRequest,
    wrap(async (p: { paths: string[]; message?: string }): Promise<CheckpointResult> => {
      const s = need();
      const res = await checkpointFiles(s.memory.context, {
        git: s.git,
        paths: Array.isArray(p?.paths) ? p.paths : [],
        ...(p?.message?.trim() ? { message: p.message.trim() } : {}),
      });
      // Committing a file from the review view approves it as it is (service/trust/review-queue.ts).
      if (res.kind === 'committed')
        await approveReview(s.memory.context, [...res.changes.added, ...res.changes.modified]).catch(() => undefined);
      return toCheckpointResult(res);
    }),
  );

  connection.onRequest(
    DiscardRequest,
    wrap(async (p: { paths: string[] }) => {
      const s = need();
      // Writes through the workspace's file system: the overlay's writes and removals are the disk's.
      const res = await discardChanges(s.memory.context, { git: s.git, paths: Array.isArray(p?.paths) ? p.paths : [] });
      s.changed([...res.restored, ...res.removed]);
      return res;
    }),
  );

  connection.onRequest(
    LineageRequest,
    wrap(async (p: { path: string; startLine: number; endLine?: number }): Promise<LineageResult> => {
      const s = need();
      const start = Math.max(1, Math.floor(Number(p.startLine) || 1));
      const end = Math.max(start, Math.floor(Number(p.endLine ?? start) || start));
      const doc = s.model.doc(p.path as never);
      const entry = doc && (doc.kind === 'entry' || doc.kind === 'playbook') ? doc.meta.id : undefined;
      let lines: LineageInfo | null = null;
      let file: LineageInfo | null = null;
      if (s.git.gitdir && s.git.workTree) {
        const [hit] = await withLineage(s.memory.context, s.git, [
          { path: p.path, startLine: start, endLine: end } as {
            path: string;
            startLine: number;
            endLine: number;
            lineage?: LineageInfo;
          },
        ]);
        lines = hit?.lineage ?? null;
        const log = await memoryHistory(s.memory.context, { git: s.git, path: p.path, limit: 1 }).catch(() => []);
        const last = log[0];
        if (last)
          file = {
            commit: last.oid,
            author: last.author.name,
            date: new Date(last.author.timestamp * 1000).toISOString(),
          };
      }
      return { lines, file, ...(entry ? { entry } : {}) };
    }),
  );

  connection.onRequest(FileLinksRequest, () => {
    const s = session();
    const files: FileLinksResult['files'] = {};
    if (!s?.model.loaded) return { files };
    for (const d of s.model.workspace.docs()) {
      if (!d.meta.files.length) continue;
      const about: MemoryAboutFile = {
        path: d.path,
        ...(d.meta.id !== undefined ? { id: d.meta.id } : {}),
        ...(d.meta.title !== undefined ? { title: d.meta.title } : {}),
        ...(d.meta.type !== undefined ? { type: d.meta.type } : {}),
      };
      for (const f of new Set(d.meta.files.map((x) => x.path.replace(/^\.\//, '')))) (files[f] ??= []).push(about);
    }
    return { files };
  });
}
