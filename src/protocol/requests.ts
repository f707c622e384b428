// The wire contract between the gitmem language server, the VS Code extension and tests: custom
// request and notification types (`gitmem/*`) with their parameter and result shapes.
// deps: vscode-languageserver-protocol (types and message-type constructors) only; nothing in-project,
// so the extension can bundle it without pulling in the service layer.
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** Recall mode (docs/DESIGN.md §3). */
export type RecallMode = 'keyword' | 'vector' | 'hybrid';

/** Document kinds, as the layout classifies files (docs/DESIGN.md §1). */
export type MemoryKind = 'long_term' | 'dreams' | 'current_state' | 'daily' | 'entry' | 'playbook' | 'note';

/** `gitmem/recall` parameters: the CLI's recall options (docs/DESIGN.md §8). */
export interface RecallParams {
  query: string;
  mode?: RecallMode;
  /** 1…50, default from config (10). */
  limit?: number;
  types?: string[];
  tags?: string[];
  kinds?: string[];
  /** Glob over entries' linked code `files`. */
  file?: string;
  /** Only memories dated on or after / before this day (YYYY-MM-DD, a real date). */
  since?: string;
  until?: string;
  /** An agent's request (a language-model tool): the retrieval audit records it (`gitmem audit`). */
  forAgent?: boolean;
}

/** One recall hit. Lines are 1-based and inclusive; `path` is workspace-relative POSIX. */
export interface RecallHit {
  path: string;
  startLine: number;
  endLine: number;
  headingPath: string[];
  kind: MemoryKind;
  snippet: string;
  score: number;
  scores: { keyword: number | null; vector: number | null };
  entry?: { id: string; type: string | null; tags: string[] };
  /** The commit that last changed the hit's lines (or `uncommitted`) and who wrote them (docs/trust.md). */
  provenance?:
    | { commit: string; short: string; author: string; date: string; writer: 'person' | 'agent' }
    | { commit: 'uncommitted'; writer: 'person' | 'agent' };
  /** `reviewed`, `unreviewed` (an agent's write) or `incoming` (arrived through sync, not yet approved). */
  review?: 'reviewed' | 'unreviewed' | 'incoming';
  /** Other trust labels (cited code, conflicts, injected instructions, secrets). */
  labels?: { class: string; text: string; lines?: number[] }[];
  /** Newer results of this recall that contradict or supersede this one (entry id or `path:line`); they come first. */
  conflictsWith?: string[];
}

/** `gitmem/recall` result: exactly the CLI's `recall --json` output. */
export interface RecallResult {
  query: string;
  mode: RecallMode;
  /** Why the answer is partial (no model, index still building, vectors still being embedded), or null. */
  degraded: string | null;
  /**
   * Chunks without a vector yet (being embedded in the background): the answer ranks them by keyword
   * only. Present only when there are some.
   */
  vectorsPending?: number;
  tookMs: number;
  results: RecallHit[];
  hint?: string;
}

export const RecallRequest = new RequestType<RecallParams, RecallResult, void>('gitmem/recall');

/** `gitmem/checkpoint` parameters. */
export interface CheckpointParams {
  /** Commit message (default: a summary of the memory changes). */
  message?: string;
  /** Why the memory changed (Memory-Reason trailer). */
  reason?: string;
  /** Commit even when possible secrets are found. */
  force?: boolean;
}

/** `gitmem/checkpoint` result: a commit, or nothing to commit. */
export type CheckpointResult =
  | {
      kind: 'committed';
      oid: string;
      branch: string | null;
      summary: string;
      changes: { added: string[]; modified: string[]; deleted: string[] };
      /** Committed memory files over `limits.maxFileBytes`, which recall and validate skip (bytes). */
      oversized?: { path: string; bytes: number }[];
    }
  | { kind: 'nothing-to-commit'; head: string | null };

export const CheckpointRequest = new RequestType<CheckpointParams, CheckpointResult, void>('gitmem/checkpoint');

/** `gitmem/memoryDiff` parameters: `from` (a revision) to `to` (a revision, default the work tree). */
export interface MemoryDiffParams {
  from: string;
  to?: string;
}

/** One changed memory in a memory diff (fields of front-matter, sections of CURRENT_STATE, lines). */
export interface MemoryDiffChange {
  path: string;
  kind: string;
  id?: string;
  change: 'added' | 'removed' | 'changed';
  renamedFrom?: string;
  fields: { key: string; before?: unknown; after?: unknown }[];
  sections: { name: string; before?: string; after?: string }[];
  linesAdded: { line: number; text: string }[];
  linesRemoved: number;
  bodyChanged: boolean;
  truncated: boolean;
}

/** `gitmem/memoryDiff` result: the CLI's `diff --json` output. */
export interface MemoryDiffResult {
  from: { rev: string; oid: string };
  to: { rev: string; oid: string } | null;
  changes: MemoryDiffChange[];
  summary: { added: number; removed: number; changed: number };
}

export const MemoryDiffRequest = new RequestType<MemoryDiffParams, MemoryDiffResult, void>('gitmem/memoryDiff');

/**
 * `gitmem/snapshot` result: the working-state snapshot of CURRENT_STATE.md. `active: false` (with
 * `reason`) when there is no working state or the server has no continuity support.
 */
export interface SnapshotResult {
  active: boolean;
  reason?: string;
  /** Workspace-relative path of CURRENT_STATE.md, when there is one. */
  path?: string;
  /** The compact snapshot text (markdown), when active. */
  text?: string;
  [key: string]: unknown;
}

export const SnapshotRequest = new RequestType<Record<string, never> | null | undefined, SnapshotResult, void>(
  'gitmem/snapshot',
);

/** `gitmem/remember` parameters: write a typed entry (deduplicated), as `gitmem remember`. */
export interface RememberParams {
  text: string;
  type?: string;
  tags?: string[];
  files?: string[];
  title?: string;
}

export interface RememberResult {
  status: 'created' | 'duplicate';
  id: string;
  path: string;
  duplicateOf?: string;
  /** An entry of the same type and tags that the new one may contradict (service/shared/conflict.ts). */
  possible_conflict?: {
    id: string;
    path: string;
    similarity: number;
    reasons: readonly string[];
    options: readonly string[];
  };
}

export const RememberRequest = new RequestType<RememberParams, RememberResult, void>('gitmem/remember');

/** One memory document, for the extension's tree view. */
export interface MemoryDocumentInfo {
  path: string;
  kind: MemoryKind;
  id?: string;
  title?: string;
  type?: string;
  /** Number of error diagnostics on the document. */
  errors: number;
}

/** `gitmem/documents` result: every memory document, sorted by path (empty while indexing). */
export interface DocumentsResult {
  documents: MemoryDocumentInfo[];
}

export const DocumentsRequest = new RequestType<Record<string, never> | null | undefined, DocumentsResult, void>(
  'gitmem/documents',
);

/** Index state reported by `gitmem/status`. */
export type IndexState = 'starting' | 'indexing' | 'ready' | 'error';

/** `gitmem/status` notification (server → client) and the `gitmem/getStatus` result. */
export interface StatusParams {
  state: IndexState;
  /** Human-readable detail ("indexing 1200/10000 files", the error message). */
  message?: string;
  files?: number;
  chunks?: number;
  /** Embedded chunks, or null when semantic recall is off or unavailable. */
  vectors?: number | null;
  /**
   * Chunks still being embedded in the background (recall finds them by keyword only until then);
   * 0 or absent when the vectors are caught up.
   */
  vectorsPending?: number;
  /** Why recall is keyword-only, or null. */
  degraded?: string | null;
  /** ISO time of the last completed index update. */
  indexedAt?: string;
  /** How the index follows changes on disk (in `gitmem/getStatus` once the workspace is open). */
  freshness?: Freshness;
}

/**
 * Where file-change events come from and how far behind the index is. `client`: the client's watcher
 * (registered through `workspace/didChangeWatchedFiles`); `server`: the server watches the
 * workspace itself because the client offers no watcher; `none`: nothing reports disk changes
 * (only edits, saves and `gitmem/reindex` update the index).
 */
export interface Freshness {
  watcher: 'client' | 'server' | 'none';
  /** ISO time the last file event arrived from that source, or null. */
  lastEventAt: string | null;
  /** ISO time of the last completed index update (first build included), or null. */
  lastUpdateAt: string | null;
  /** Changed files queued or being applied, not yet visible to recall. */
  pending: number;
}

export const StatusNotification = new NotificationType<StatusParams>('gitmem/status');
export const GetStatusRequest = new RequestType<Record<string, never> | null | undefined, StatusParams, void>(
  'gitmem/getStatus',
);

/** `gitmem/ready` notification: the first index build finished and every feature has full data. */
export interface ReadyParams {
  files: number;
  chunks: number;
  /** Milliseconds from `initialized` to ready. */
  ms: number;
  /** `loaded` when the persisted index was reused, `built` when it was rebuilt. */
  source: 'loaded' | 'built';
}

export const ReadyNotification = new NotificationType<ReadyParams>('gitmem/ready');

/** `gitmem/reindex` request: bring the index up to date now (`rebuild` discards it first). */
export interface ReindexParams {
  rebuild?: boolean;
}

export const ReindexRequest = new RequestType<ReindexParams | null | undefined, StatusParams, void>('gitmem/reindex');

/** Options the client may pass in `initializationOptions`. */
export interface InitializationOptions {
  /** Folder of the embedding model (overrides the default lookup). */
  modelDir?: string;
  /** Log debug lines to the client console. */
  debug?: boolean;
}

/**
 * `gitmem/codeDiff` parameters: a cited code file (repository-relative POSIX) and the commit a memory
 * was checked from, as a `memory.code.stale` diagnostic's `data` carries them (`path`, `since`, and
 * `movedTo` for a renamed file).
 */
export interface CodeDiffParams {
  path: string;
  since: string;
  movedTo?: string;
}

/** `gitmem/codeDiff` result: the unified diff of the file at `since` → the work tree ('' when unchanged). */
export interface CodeDiffResult {
  path: string;
  since: string;
  movedTo?: string;
  diff: string;
  /** The file is gone from the work tree: the diff removes every line. */
  deleted: boolean;
}

export const CodeDiffRequest = new RequestType<CodeDiffParams, CodeDiffResult, void>('gitmem/codeDiff');
