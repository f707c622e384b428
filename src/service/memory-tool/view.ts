// `view`: a folder's files and folders two levels deep with their sizes, or a file's lines numbered
// (the shapes and sentences of Anthropic's memory tool, docs/integrations.md). The listing comes from
// the workspace walk (MemoryFs.list), so hidden items, ignored folders and symlinks leading out of
// the workspace never show. deps: core, service/shared (the context), service/memory-tool.
import { toRelPath } from '../../core/paths.js';
import { decodeText } from '../../core/text.js';
import type { MemoryContext } from '../shared/memory-context.js';
import type { ToolPath } from './paths.js';
import { MemoryToolError } from './types.js';

/** Line numbers are right-aligned to six characters, then a tab. */
const NUMBER_WIDTH = 6;

/** `1.5K`, `512B`, `2.0M` (1024-based, one decimal unless whole). */
export function formatSize(bytes: number): string {
  const units = ['B', 'K', 'M', 'G'];
  let i = 0;
  let n = bytes;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)}${units[i]}`;
}

/** Every file under `dir` (workspace-relative), none hidden. */
export async function filesUnder(ctx: MemoryContext, dir: string): Promise<string[]> {
  const prefix = `${dir}/`;
  return ctx.fs.list(
    (p) =>
      p.startsWith(prefix) &&
      !p
        .slice(prefix.length)
        .split('/')
        .some((s) => s.startsWith('.')),
  );
}

/** The text of `p`, or undefined when there is no such file (or it is a folder). @throws MemoryToolError for a binary file. */
export async function readToolFile(ctx: MemoryContext, p: ToolPath): Promise<string | undefined> {
  const st = await ctx.fs.stat(p.rel);
  if (!st || st.isDirectory) return undefined;
  const bytes = await ctx.fs.read(p.rel);
  if (bytes === undefined) return undefined;
  const { text, problem } = decodeText(bytes);
  if (problem === 'binary') throw new MemoryToolError(`The file ${p.shown} is binary; the memory tool reads text only`);
  return text;
}

/** `lines` numbered from `first` (1-based). */
export function numbered(lines: readonly string[], first: number): string {
  return lines.map((l, i) => `${String(first + i).padStart(NUMBER_WIDTH)}\t${l}`).join('\n');
}

async function listing(ctx: MemoryContext, p: ToolPath, files: readonly string[]): Promise<string> {
  const base = p.rel;
  const sizes = new Map<string, number>(); // relative path under base (folders end in /) → bytes
  let total = 0;
  const stats = await Promise.all(files.map((f) => ctx.fs.stat(toRelPath(f))));
  files.forEach((f, i) => {
    const size = stats[i]?.size ?? 0;
    total += size;
    const parts = f.slice(base.length + 1).split('/');
    // folders one and two levels down, and files at those levels
    for (let d = 1; d < parts.length && d <= 2; d++) {
      const key = `${parts.slice(0, d).join('/')}/`;
      sizes.set(key, (sizes.get(key) ?? 0) + size);
    }
    if (parts.length <= 2) sizes.set(parts.join('/'), size);
  });
  const rows = [...sizes.keys()].sort().map((k) => `${formatSize(sizes.get(k)!)}\t${p.shown}/${k}`);
  return [
    `Here're the files and directories up to 2 levels deep in ${p.shown}, excluding hidden items:`,
    `${formatSize(total)}\t${p.shown}`,
    ...rows,
  ].join('\n');
}

function range(value: unknown, count: number): [number, number] {
  const bad = () =>
    new MemoryToolError(
      `Invalid \`view_range\` parameter: ${JSON.stringify(value)}. It should be [first, last] with 1 <= first <= ${Math.max(count, 1)} and last >= first or -1.`,
    );
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => Number.isInteger(v))) throw bad();
  const [first, last] = value as [number, number];
  if (first < 1 || first > Math.max(count, 1) || (last !== -1 && last < first)) throw bad();
  return [first, last === -1 ? count : Math.min(last, count)];
}

/**
 * @returns the listing of a folder or the numbered lines of a file.
 * @throws MemoryToolError `The path … does not exist. Please provide a valid path.`, a bad `view_range`.
 */
export async function view(ctx: MemoryContext, p: ToolPath, viewRange: unknown): Promise<string> {
  const text = p.isRoot ? undefined : await readToolFile(ctx, p);
  if (text === undefined) {
    const files = await filesUnder(ctx, p.rel);
    if (!files.length && !p.isRoot)
      throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
    return listing(ctx, p, files);
  }
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline ends a line, it does not start one
  const [first, last] =
    viewRange === undefined || viewRange === null ? [1, lines.length] : range(viewRange, lines.length);
  return `Here's the content of ${p.shown} with line numbers:\n${numbered(lines.slice(first - 1, last), first)}`;
}
