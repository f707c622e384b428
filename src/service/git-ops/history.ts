// The history of the memory files, of one file or folder, or of an entry by its id.
// deps: core, git, engine (git-context), service (Memory type).
import { toRelPath } from '../../core/paths.js';
import { memoryLog, type LogEntry } from '../../git/history.js';
import { gitContext, type GitLocation } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';

export type { LogEntry } from '../../git/history.js';
export type { GitLocation } from '../../engine/load/git-context.js';

/** `memoryHistory`'s input: the repository, and an optional file, folder or entry id, limit and start revision. */
export interface HistoryInput {
  readonly git: GitLocation;
  /** A workspace-relative memory file or folder, or an entry id. */
  readonly path?: string;
  /** Most commits returned. */
  readonly limit?: number;
  /** Start from this revision instead of HEAD. */
  readonly rev?: string;
}

/**
 * History of the memory files, or of one file/folder. `path` may also be an entry or playbook id.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`, `path.outside-root`.
 */
export async function memoryHistory(ctx: MemoryContext, input: HistoryInput): Promise<LogEntry[]> {
  const { git: where, ...options } = input;
  const memory = ctx;
  const { repo, scope } = gitContext(memory, where);
  let path: string | undefined;
  if (options.path) {
    const raw = options.path.trim();
    if (!/[/\\]/.test(raw) && !/\.md$/i.test(raw)) {
      const docs = (await memory.workspace()).byId(raw);
      path = docs[0]?.path ?? toRelPath(raw);
    } else path = toRelPath(raw);
  }
  return memoryLog(repo, scope, {
    ...(path ? { path } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.rev !== undefined ? { rev: options.rev } : {}),
  });
}
