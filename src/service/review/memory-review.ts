// Memory review: the memory files changed since HEAD with their entry (id, type, title) and writer
// (service/review/writers.ts), a file's text at HEAD for the diff editor, checkpointing chosen files and
// discarding changes (restore from HEAD). Git access goes through service/git-ops/ (one git service).
// deps: core, git, service.
import { MemoryError } from '../../core/errors.js';
import { classify } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import { readFileAt } from '../../git/history.js';
import { memoryStatus } from '../../git/status.js';
import {
  checkpointMemory,
  type CheckpointRequest,
  type CheckpointReport,
  type GitLocation,
} from '../git-ops/checkpoint.js';
import { gitContext } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { readWriters, writerOf, type Writer } from './writers.js';

/** One memory file that differs from HEAD. */
export interface ReviewFile {
  /** Workspace-relative path. */
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  /** Memory kind from the layout (entry, playbook, long_term, …). */
  readonly kind: string;
  /** Entry or playbook id, when the file has one (the old text's for a deletion). */
  readonly id?: string;
  readonly type?: string;
  readonly title?: string;
  /** Who wrote the change: the writer record when it still matches the text, else a human. */
  readonly writer: Writer;
  /** The channel of a recorded write (`mcp`). */
  readonly via?: string;
  /** ISO time of a recorded write. */
  readonly at?: string;
}

export interface ReviewResult {
  /** HEAD commit, or null on an unborn branch. */
  readonly head: string | null;
  readonly files: readonly ReviewFile[];
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Entry fields of a file's text (front-matter `id`, `type`, `title`), without a full parse. */
function fieldsOf(text: string): { id?: string; type?: string; title?: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return {};
  const out: Record<string, string> = {};
  for (const key of ['id', 'type', 'title']) {
    const line = new RegExp(`^${key}:\\s*(.+?)\\s*$`, 'm').exec(m[1]!);
    if (line) out[key] = line[1]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/** The review calls' input: the repository around the workspace. */
export interface ReviewInput {
  readonly git: GitLocation;
}

/** `headText`'s input: the repository and one memory file. */
export interface HeadTextInput extends ReviewInput {
  /** Workspace-relative path of a memory file. */
  readonly path: string;
}

/** `checkpointFiles`'s input: the repository, the memory files to commit (at least one) and the commit's fields. */
export interface CheckpointFilesInput extends CheckpointRequest, ReviewInput {
  readonly paths: readonly string[];
}

/** `discardChanges`'s input: the repository and the memory files to restore from HEAD. */
export interface DiscardInput extends ReviewInput {
  readonly paths: readonly string[];
}

/**
 * The memory files that differ from HEAD, sorted by path.
 * @throws MemoryError `git.not-a-repository`.
 */
export async function reviewChanges(ctx: MemoryContext, input: ReviewInput): Promise<ReviewResult> {
  const memory = ctx;
  const { repo, scope } = gitContext(memory, input.git);
  const s = await memoryStatus(repo, scope);
  const writers = await readWriters(memory.storage);
  const rp = (p: string) => (scope.prefix ? `${scope.prefix}/${p}` : p);
  const files: ReviewFile[] = [];
  const all: Array<[string, ReviewFile['change']]> = [
    ...s.added.map((p): [string, ReviewFile['change']] => [p, 'added']),
    ...s.modified.map((p): [string, ReviewFile['change']] => [p, 'modified']),
    ...s.deleted.map((p): [string, ReviewFile['change']] => [p, 'deleted']),
  ];
  for (const [path, change] of all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const work = s.work.get(rp(path));
    const text = work
      ? decoder.decode(work.blob)
      : change === 'deleted'
        ? await readFileAt(repo, scope, 'HEAD', path)
        : undefined;
    const f = text !== undefined ? fieldsOf(text) : {};
    // a deletion is an agent's when the record says it wrote the file away (the empty text, service/memory-tool)
    const w = writerOf(writers, path, change === 'deleted' ? '' : text);
    files.push({ path, change, kind: classify(path, memory.loaded.layout) ?? 'note', ...f, ...w });
  }
  return { head: s.head.kind === 'unborn' ? null : s.head.oid, files };
}

/**
 * The text of memory file `path` at HEAD. @returns undefined when HEAD has no such file.
 * @throws MemoryError `git.not-a-repository`, `path.outside-root`, `path.not-memory`.
 */
export async function headText(ctx: MemoryContext, input: HeadTextInput): Promise<string | undefined> {
  const rel = memoryPath(ctx, input.path);
  const { repo, scope } = gitContext(ctx, input.git);
  try {
    return await readFileAt(repo, scope, 'HEAD', rel);
  } catch (e) {
    if (
      (e as { code?: string }).code === 'NotFoundError' ||
      /unborn|Could not find HEAD/i.test(String((e as Error).message))
    )
      return undefined;
    throw e;
  }
}

function memoryPath(memory: Pick<MemoryContext, 'loaded'>, path: string): string {
  const rel = toRelPath(path);
  if (!classify(rel, memory.loaded.layout))
    throw new MemoryError('path.not-memory', `${rel} is not a memory file in the ${memory.loaded.layout.name} layout`);
  return rel;
}

/**
 * Commit only `paths` (memory files changed since HEAD; others stay uncommitted).
 * @throws MemoryError as {@link checkpointMemory}; `usage` for an empty list.
 */
export function checkpointFiles(ctx: MemoryContext, input: CheckpointFilesInput): Promise<CheckpointReport> {
  const { paths, ...request } = input;
  if (!paths.length) throw new MemoryError('usage', 'name at least one memory file to checkpoint');
  return checkpointMemory(ctx, { ...request, paths: paths.map((p) => memoryPath(ctx, p)) });
}

/**
 * Restore memory files from HEAD: modified and deleted files get HEAD's text back, files HEAD does
 * not have are deleted. Only memory paths; writes go through the context's file system (confined to the workspace).
 * @returns what was restored and what was removed.
 * @throws MemoryError `git.not-a-repository`, `path.not-memory`, `fs.write-failed`.
 */
export async function discardChanges(
  ctx: MemoryContext,
  input: DiscardInput,
): Promise<{ restored: string[]; removed: string[] }> {
  const { fs } = ctx;
  const restored: string[] = [];
  const removed: string[] = [];
  for (const p of input.paths) {
    const rel = memoryPath(ctx, p);
    const text = await headText(ctx, { git: input.git, path: rel });
    if (text === undefined) {
      await fs.remove(toRelPath(rel));
      removed.push(rel);
    } else {
      await fs.writeTextAtomic(toRelPath(rel), text);
      restored.push(rel);
    }
  }
  return { restored, removed };
}
