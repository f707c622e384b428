// The memory file ports over a MemoryContext: write one memory file, create one, check a write, list
// every file, rename one; and write a text over a file keeping the file's own bytes where the text
// extends it (writeExtended). Memory (service/memory.ts) exposes the same operations as methods for the
// use cases still called over it; a use case called as fn(ctx, input) calls these. Each write runs the
// layout guard here, then the file system port's own guards (confinement, NUL bytes, secret scan).
// deps: core.
import { MemoryError } from '../../core/errors.js';
import { memoryKindForWrite } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import type { MemoryFs } from '../../core/ports.js';
import type { MemoryContext } from './memory-context.js';

type FileContext = Pick<MemoryContext, 'fs' | 'loaded'>;

/**
 * Write one memory file (atomic replace; folders created).
 * @throws MemoryError `path.not-memory` when `path` is not memory in this layout, `path.ignored` when
 * an `ignore` glob of the config covers it, `path.outside-root`, `fs.write-failed`.
 */
export async function writeMemoryFile(ctx: FileContext, path: string, text: string): Promise<void> {
  const rel = toRelPath(path);
  memoryKindForWrite(rel, ctx.loaded.layout);
  await ctx.fs.writeTextAtomic(rel, text);
}

/**
 * Create one new memory file, never replacing one that exists (exclusive create; folders created).
 * @returns false when something already exists at `path` (nothing written).
 * @throws MemoryError as {@link writeMemoryFile}.
 */
export async function createMemoryFile(ctx: FileContext, path: string, text: string): Promise<boolean> {
  const rel = toRelPath(path);
  memoryKindForWrite(rel, ctx.loaded.layout);
  return ctx.fs.createTextExclusive(rel, text);
}

/**
 * Every guard {@link writeMemoryFile} would run for this write (with `create`, {@link createMemoryFile}'s:
 * MemoryFs.checkWrite), writing nothing. @throws as it.
 */
export async function checkMemoryWrite(
  ctx: FileContext,
  path: string,
  text: string,
  options?: { readonly create?: boolean },
): Promise<void> {
  const rel = toRelPath(path);
  memoryKindForWrite(rel, ctx.loaded.layout);
  await ctx.fs.checkWrite(rel, text, options);
}

/** Every file under the root, memory or not, sorted (folder moves follow links to code files too). */
export function listFiles(ctx: Pick<MemoryContext, 'fs'>): Promise<RelPath[]> {
  return ctx.fs.list(() => true);
}

/**
 * Rename one file inside the root; never replaces an existing file.
 * @throws MemoryError `usage` when `to` exists or the file system cannot move, `path.outside-root`, `fs.*`.
 */
export async function moveFile(ctx: Pick<MemoryContext, 'fs'>, from: string, to: string): Promise<void> {
  const a = toRelPath(from);
  const b = toRelPath(to);
  if (!(await ctx.fs.renameFile(a, b))) throw new MemoryError('usage', `${b} already exists; nothing moved`);
}

/**
 * Write `next` over the file at `path` that held `now.bytes`, decoded as `now.text`. When `next` is
 * that text plus more (an append), the file's own bytes are kept exactly and the rest is added after
 * them: bytes that are not valid UTF-8 (decoded as U+FFFD) stay as they were (docs/bad-inputs.md R55).
 * Otherwise `next` replaces the text, which the file system refuses for a file that is not UTF-8.
 * `carried` as {@link MemoryFs.writeTextAtomic} takes it.
 * @throws MemoryError as {@link MemoryFs.writeTextAtomic}.
 */
export async function writeExtended(
  fs: MemoryFs,
  path: RelPath,
  now: { readonly bytes: Uint8Array; readonly text: string },
  next: string,
  carried?: string,
): Promise<void> {
  if (!next.startsWith(now.text)) return fs.writeTextAtomic(path, next, carried);
  const added = new TextEncoder().encode(next.slice(now.text.length));
  const out = new Uint8Array(now.bytes.length + added.length);
  out.set(now.bytes);
  out.set(added, now.bytes.length);
  return fs.writeBytesAtomic(path, out, carried);
}
