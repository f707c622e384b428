// What awaits a person's review (`gitmem review`): memory files an agent wrote through gitmem (the
// writer record still matches the file) and files a `gitmem sync` brought in, neither approved for
// their current text; and approving files (`gitmem review --approve`, a checkpoint from the editor's
// review view), which makes their lines `reviewed` in every answer. deps: core, service.
import { MemoryError } from '../../core/errors.js';
import { classify } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { readWriters, writerOf } from '../review/writers.js';
import { approveFiles, isApproved, readReviewMarks } from './review-marks.js';

/** One file awaiting review. */
export interface PendingReview {
  readonly path: string;
  /** `unreviewed`: an agent's write; `incoming`: arrived through sync. */
  readonly state: 'unreviewed' | 'incoming';
  /** The channel of the agent's write (`mcp`), or `sync`. */
  readonly via: string;
  /** ISO time of the write or the sync. */
  readonly at: string;
}

async function textOf(ctx: MemoryContext, path: string): Promise<string | undefined> {
  try {
    const bytes = await ctx.fs.read(toRelPath(path));
    return bytes ? new TextDecoder().decode(bytes).replace(/^\uFEFF/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** The files awaiting review, sorted by path. */
export async function pendingReview(ctx: MemoryContext): Promise<PendingReview[]> {
  const [writers, marks] = await Promise.all([readWriters(ctx.storage), readReviewMarks(ctx.storage)]);
  const out = new Map<string, PendingReview>();
  for (const [path, at] of Object.entries(marks.incomingFiles)) {
    const text = await textOf(ctx, path);
    if (text !== undefined && !isApproved(marks, path, text))
      out.set(path, { path, state: 'incoming', via: 'sync', at });
  }
  for (const path of Object.keys(writers)) {
    if (out.has(path)) continue;
    const text = await textOf(ctx, path);
    if (text === undefined || isApproved(marks, path, text)) continue;
    const w = writerOf(writers, path, text);
    if (w.writer === 'agent') out.set(path, { path, state: 'unreviewed', via: w.via ?? 'agent', at: w.at ?? '' });
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The current text of each of `paths` (each a memory file of the workspace).
 * @throws MemoryError `path.not-memory`, `fs.not-found`.
 */
async function memoryTexts(ctx: MemoryContext, paths: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const p of paths) {
    const rel = toRelPath(p);
    if (!classify(rel, ctx.loaded.layout))
      throw new MemoryError('path.not-memory', `${rel} is not a memory file in the ${ctx.loaded.layout.name} layout`);
    const text = await textOf(ctx, rel);
    if (text === undefined) throw new MemoryError('fs.not-found', `${rel} does not exist`);
    files.set(rel, text);
  }
  return files;
}

/**
 * Approve `paths` as they are now (each a memory file of the workspace), awaiting review or not: a
 * person's checkpoint from the editor's review view approves what it commits.
 * @returns the paths approved.
 * @throws MemoryError `path.not-memory`, `fs.not-found`.
 */
export async function approveReview(ctx: MemoryContext, paths: readonly string[]): Promise<string[]> {
  const files = await memoryTexts(ctx, paths);
  await approveFiles(ctx.storage, files, ctx.clock.now());
  return [...files.keys()];
}

/**
 * Approve those of `paths` that await review (`gitmem review --approve`); the others are named, not
 * approved, so the command never reports an approval it did not make. Every path is checked first:
 * nothing is approved when one is not a memory file or does not exist.
 * @returns `approved` (were pending, now reviewed) and `notAwaiting` (nothing to approve), each in
 * the order given.
 * @throws MemoryError `path.not-memory`, `fs.not-found`.
 */
export async function approvePending(
  ctx: MemoryContext,
  paths: readonly string[],
): Promise<{ approved: string[]; notAwaiting: string[] }> {
  const files = await memoryTexts(ctx, paths);
  const awaiting = new Set((await pendingReview(ctx)).map((p) => p.path));
  const approve = new Map([...files].filter(([path]) => awaiting.has(path)));
  if (approve.size > 0) await approveFiles(ctx.storage, approve, ctx.clock.now());
  return { approved: [...approve.keys()], notAwaiting: [...files.keys()].filter((p) => !awaiting.has(p)) };
}
