// `delete` and `rename`: the memory tool's removals and moves, of a file or a whole folder.
// Delete removes the files from the work tree and commits nothing: git keeps every committed version,
// `gitmem review` lists the file as deleted (by the agent, through the writer record) and `gitmem
// review --discard` brings it back. So that nothing is lost, a file whose text is neither committed
// nor the agent's own write (a person's uncommitted edit) is never deleted. Rename moves without ever
// replacing a file, each moved file through the guards of a write (memory path, secret scan).
// deps: core, service/shared (the context), service/review, service/memory-tool.
import { toRelPath } from '../../core/paths.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { headText } from '../review/memory-review.js';
import { checkMemoryWrite, moveFile } from '../shared/memory-files.js';
import { readWriters, recordWriter, writerOf } from '../review/writers.js';
import { refuseNonMemoryFile, ROOT, shownPath, type ToolPath } from './paths.js';
import { MemoryToolError } from './types.js';
import { filesUnder, readToolFile } from './view.js';
import { applyToIndex, toolError } from './write.js';

/** The files `p` names: itself, or every file under the folder (none when nothing is there). */
async function targets(ctx: MemoryContext, p: ToolPath): Promise<{ files: string[]; folder: boolean }> {
  if (!p.isRoot && (await readToolFile(ctx, p)) !== undefined) return { files: [p.rel], folder: false };
  return { files: await filesUnder(ctx, p.rel), folder: true };
}

async function textOf(ctx: MemoryContext, rel: string): Promise<string> {
  const bytes = await ctx.fs.read(toRelPath(rel));
  return bytes ? new TextDecoder().decode(bytes) : '';
}

/** Whether deleting `rel` (now `text`) loses nothing: the agent wrote it, or HEAD has it as it is. */
async function recoverable(
  ctx: MemoryContext,
  rel: string,
  text: string,
  records: Awaited<ReturnType<typeof readWriters>>,
) {
  if (writerOf(records, rel, text).writer === 'agent') return true;
  const git = ctx.git;
  if (!git) return false;
  try {
    return (await headText(ctx, { git, path: rel })) === text;
  } catch {
    return false;
  }
}

/**
 * @returns `Successfully deleted <path>`.
 * @throws MemoryToolError for `/memories` itself, a missing path, or a file holding a person's uncommitted text.
 */
export async function remove(ctx: MemoryContext, folder: string, p: ToolPath, via: string): Promise<string> {
  if (p.isRoot) throw new MemoryToolError(`Cannot delete the ${ROOT} directory itself`);
  const { files } = await targets(ctx, p);
  if (!files.length) throw new MemoryToolError(`The path ${p.shown} does not exist`);
  const records = await readWriters(ctx.storage);
  for (const f of files) {
    if (!(await recoverable(ctx, f, await textOf(ctx, f), records)))
      throw new MemoryToolError(
        `${shownPath(toRelPath(folder), f)} holds changes a person made that are not committed, so nothing was deleted (commit or review them first: gitmem review)`,
        'usage',
      );
  }
  const fs = ctx.fs;
  try {
    for (const f of files) await fs.remove(toRelPath(f));
  } catch (e) {
    throw toolError(e);
  }
  // the deletion is the agent's: recorded against the empty text a deleted file has in review
  await recordWriter(ctx.storage, new Map(files.map((f) => [f, ''])), 'agent', via);
  await applyToIndex(ctx, { created: [], changed: [], deleted: files.map((f) => toRelPath(f)) });
  return `Successfully deleted ${p.shown}`;
}

/**
 * Move a file, or every file of a folder, to `to`; never replaces anything.
 * @returns `Successfully renamed <old_path> to <new_path>`.
 * @throws MemoryToolError for a missing source, an existing destination, a folder moved into itself,
 *   a destination that is not a markdown memory file, or a guard's refusal (nothing moved).
 */
export async function rename(ctx: MemoryContext, from: ToolPath, to: ToolPath, via: string): Promise<string> {
  if (from.isRoot || to.isRoot) throw new MemoryToolError(`Cannot rename the ${ROOT} directory itself`);
  const { files, folder } = await targets(ctx, from);
  if (!files.length) throw new MemoryToolError(`The path ${from.shown} does not exist`);
  if ((await targets(ctx, to)).files.length) throw new MemoryToolError(`The destination ${to.shown} already exists`);
  if (folder && to.rel.startsWith(`${from.rel}/`))
    throw new MemoryToolError(`Cannot move ${from.shown} into itself (${to.shown})`);
  const moves = files.map((f) => {
    const dest = folder ? `${to.rel}${f.slice(from.rel.length)}` : to.rel;
    return { from: f, to: dest, shown: folder ? `${to.shown}${f.slice(from.rel.length)}` : to.shown };
  });
  const texts = new Map<string, string>();
  for (const m of moves) {
    refuseNonMemoryFile(ctx, { shown: m.shown, rel: toRelPath(m.to), isRoot: false });
    const text = await textOf(ctx, m.from);
    try {
      await checkMemoryWrite(ctx, m.to, text); // memory path, confinement, the secret scan of the name and text
    } catch (e) {
      throw toolError(e);
    }
    texts.set(m.to, text);
  }
  try {
    for (const m of moves) await moveFile(ctx, m.from, m.to);
  } catch (e) {
    throw toolError(e);
  }
  await recordWriter(
    ctx.storage,
    new Map([...moves.map((m): [string, string] => [m.from, '']), ...texts]),
    'agent',
    via,
  );
  await applyToIndex(ctx, {
    created: moves.map((m) => toRelPath(m.to)),
    changed: [],
    deleted: moves.map((m) => toRelPath(m.from)),
  });
  return `Successfully renamed ${from.shown} to ${to.shown}`;
}
