// `/memories/...` paths of the memory tool mapped onto one folder of the workspace, with the
// confinement every write shares: no `..`, no absolute or drive path, no backslash, no hidden
// segment, no symlink leading out of the folder (MemoryFs.realPath), and only markdown files (the
// workspace's memory is markdown; a file there is a note the index and recall read).
// deps: core, service/shared (the context), service/memory-tool.
import { classify, memoryKindForWrite } from '../../core/layout.js';
import { MemoryError } from '../../core/errors.js';
import { toNewRelPath, type RelPath } from '../../core/paths.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { MemoryToolError } from './types.js';

/** The tool's root as the model sees it. */
export const ROOT = '/memories';

/** One resolved path: what the model named, and the workspace path it maps to. */
export interface ToolPath {
  /** As the model wrote it, without a trailing slash (`/memories/notes.md`). */
  readonly shown: string;
  /** Workspace-relative path (`memory/claude/notes.md`), the folder itself for `/memories`. */
  readonly rel: RelPath;
  /** Whether it names the tool's root. */
  readonly isRoot: boolean;
}

/** The folder `/memories` maps to: `options.folder`, else `<memory folder>/claude`. */
export function toolFolder(ctx: MemoryContext, folder?: string): RelPath {
  const dir = ctx.loaded.layout.memoryDir;
  const chosen = folder ?? (dir ? `${dir}/claude` : 'claude');
  const rel = toNewRelPath(chosen, 'nothing written');
  if (!classify(`${rel}/x.md`, ctx.loaded.layout))
    throw new MemoryError('path.not-memory', `${rel} is not a memory folder in the ${ctx.loaded.layout.name} layout`, {
      hint: 'choose a folder whose markdown files gitmem reads as memory (inside the memory folder)',
    });
  return rel;
}

/**
 * Resolve the model's `path` under `folder`.
 * @throws MemoryToolError for a path outside `/memories`, one with `..`, a backslash, a NUL or a
 *   hidden segment, and one a symlink leads out of the folder.
 */
export async function resolveToolPath(ctx: MemoryContext, folder: RelPath, path: unknown): Promise<ToolPath> {
  if (typeof path !== 'string' || path.length === 0) throw new MemoryToolError('`path` must be a non-empty string');
  const shown = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (shown !== ROOT && !shown.startsWith(`${ROOT}/`))
    throw new MemoryToolError(`Path must start with ${ROOT}, got: ${path}`, 'path.outside-root');
  const rest = shown.slice(ROOT.length + 1);
  const segments = rest ? rest.split('/') : [];
  if (segments.some((s) => s === '..' || s === '.' || s === ''))
    throw new MemoryToolError(`Path ${path} would escape the ${ROOT} directory`, 'path.outside-root');
  if (segments.some((s) => s.startsWith('.')))
    throw new MemoryToolError(`Path ${path} names a hidden item; the memory directory has none`, 'path.invalid');
  let rel: RelPath;
  try {
    rel = toNewRelPath(rest ? `${folder}/${rest}` : folder, 'nothing written');
  } catch (e) {
    if (e instanceof MemoryError) throw new MemoryToolError(`${e.message}`, e.code);
    throw e;
  }
  await refuseSymlinkOut(ctx, folder, rel, path);
  return { shown, rel, isRoot: rest === '' };
}

async function refuseSymlinkOut(ctx: MemoryContext, folder: RelPath, rel: RelPath, path: string): Promise<void> {
  const fs = ctx.fs;
  let real: string;
  try {
    if (!fs.realPath) return;
    real = await fs.realPath(rel);
    const realFolder = await fs.realPath(folder);
    if (real === realFolder || real.startsWith(`${realFolder}/`)) return;
  } catch (e) {
    if (e instanceof MemoryError)
      throw new MemoryToolError(`Path ${path} would escape the ${ROOT} directory (${e.message})`, e.code);
    throw e;
  }
  throw new MemoryToolError(`Path ${path} would escape the ${ROOT} directory via a symlink`, 'path.outside-root');
}

/**
 * The guard of a file the tool writes: markdown, and memory in the layout (not ignored).
 * @throws MemoryToolError naming what to do instead.
 */
export function refuseNonMemoryFile(ctx: MemoryContext, p: ToolPath): void {
  if (p.isRoot) throw new MemoryToolError(`${p.shown} is a directory`);
  if (!/\.md$/i.test(p.rel))
    throw new MemoryToolError(
      `${p.shown} is not a markdown file: gitmem keeps memory as markdown, so name it with .md (e.g. ${p.shown.replace(/\.[^./]*$/, '')}.md)`,
      'path.not-memory',
    );
  try {
    memoryKindForWrite(p.rel, ctx.loaded.layout);
  } catch (e) {
    if (e instanceof MemoryError) throw new MemoryToolError(`${e.message}`, e.code);
    throw e;
  }
}

/** The model's path for a workspace path under `folder`. */
export function shownPath(folder: RelPath, rel: string): string {
  return rel === folder ? ROOT : `${ROOT}/${rel.slice(folder.length + 1)}`;
}
