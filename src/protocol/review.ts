// Wire contract of the editor's memory review and lineage features (`gitmem/*` requests): the
// Memory Changes view, the HEAD side of its diff editor, per-file checkpoint and discard, line
// lineage for hovers, and the code files memory entries are about (CodeLens).
// deps: vscode-languageserver-protocol only (like requests.ts).
import { RequestType } from 'vscode-languageserver-protocol';
import type { CheckpointResult } from './requests.js';

/** Who wrote a change since HEAD. */
export type WriterKind = 'agent' | 'human';

/** One memory file that differs from HEAD. `path` is workspace-relative POSIX. */
export interface ChangedMemoryFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  kind: string;
  id?: string;
  type?: string;
  title?: string;
  writer: WriterKind;
  /** Channel of a recorded agent write (`mcp`). */
  via?: string;
  /** ISO time of a recorded write. */
  at?: string;
}

/** `gitmem/memoryChanges` result. */
export interface MemoryChangesResult {
  /** HEAD commit, or null on an unborn branch. */
  head: string | null;
  files: ChangedMemoryFile[];
}

export const MemoryChangesRequest = new RequestType<
  Record<string, never> | null | undefined,
  MemoryChangesResult,
  void
>('gitmem/memoryChanges');

/** `gitmem/headText`: a memory file's text at HEAD (`text` null when HEAD has no such file). */
export interface HeadTextParams {
  path: string;
}
export const HeadTextRequest = new RequestType<HeadTextParams, { text: string | null }, void>('gitmem/headText');

/** `gitmem/checkpointFiles`: commit only `paths` (memory files). */
export interface CheckpointFilesParams {
  paths: string[];
  message?: string;
}
export const CheckpointFilesRequest = new RequestType<CheckpointFilesParams, CheckpointResult, void>(
  'gitmem/checkpointFiles',
);

/** `gitmem/discard`: restore `paths` from HEAD (files HEAD lacks are deleted). */
export interface DiscardParams {
  paths: string[];
}
export const DiscardRequest = new RequestType<DiscardParams, { restored: string[]; removed: string[] }, void>(
  'gitmem/discard',
);

/** The commit that last changed some lines. `date` is ISO-8601 (UTC). */
export interface LineageInfo {
  commit: string;
  author: string;
  date: string;
}

/** `gitmem/lineage`: lineage of lines `startLine`…`endLine` (1-based, inclusive) of a memory file, and of its entry. */
export interface LineageParams {
  path: string;
  startLine: number;
  endLine?: number;
}
export interface LineageResult {
  /** The lines' last change; null when they are not committed (or outside git). */
  lines: LineageInfo | null;
  /** The entry the lines belong to (id), when the file is an entry or playbook. */
  entry?: string;
  /** The whole file's text as committed: the commit that last changed any of it. */
  file: LineageInfo | null;
}
export const LineageRequest = new RequestType<LineageParams, LineageResult, void>('gitmem/lineage');

/** One memory about a code file. */
export interface MemoryAboutFile {
  path: string;
  id?: string;
  title?: string;
  type?: string;
}

/** `gitmem/fileLinks` result: code file (workspace-relative) → the memories whose `files:` name it. */
export interface FileLinksResult {
  files: Record<string, MemoryAboutFile[]>;
}
export const FileLinksRequest = new RequestType<Record<string, never> | null | undefined, FileLinksResult, void>(
  'gitmem/fileLinks',
);
