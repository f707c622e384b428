// `create`, `str_replace` and `insert`: the memory tool's writes of one file, each through
// write.ts (size cap, validation, memory path, confinement, secret scan, writer record), with the
// result and error sentences of Anthropic's memory tool (docs/integrations.md).
// deps: service/shared (the context), service/memory-tool.
import type { MemoryContext } from '../shared/memory-context.js';
import { refuseNonMemoryFile, type ToolPath } from './paths.js';
import { MemoryToolError } from './types.js';
import { numbered, readToolFile } from './view.js';
import { writeToolFile } from './write.js';

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new MemoryToolError(`\`${field}\` must be a string`);
  return value;
}

async function existing(ctx: MemoryContext, p: ToolPath): Promise<string> {
  refuseNonMemoryFile(ctx, p);
  const t = await readToolFile(ctx, p);
  if (t === undefined) throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
  return t;
}

/** @returns `File created successfully at: <path>`. @throws MemoryToolError `File <path> already exists`, a guard's refusal. */
export async function create(ctx: MemoryContext, p: ToolPath, fileText: unknown, via: string): Promise<string> {
  refuseNonMemoryFile(ctx, p);
  await writeToolFile(ctx, p, text(fileText, 'file_text'), 'create', via);
  return `File created successfully at: ${p.shown}`;
}

/** 1-based numbers of the lines where `needle` starts in `hay`. */
function occurrences(hay: string, needle: string): number[] {
  const lines: number[] = [];
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1))
    lines.push(hay.slice(0, at).split('\n').length);
  return lines;
}

/**
 * Replace the one occurrence of `old_str`.
 * @returns the edited lines, numbered, with two lines of context.
 * @throws MemoryToolError when `old_str` is missing (`did not appear verbatim`) or not unique (`Multiple occurrences … in lines: …`).
 */
export async function strReplace(
  ctx: MemoryContext,
  p: ToolPath,
  oldStr: unknown,
  newStr: unknown,
  via: string,
): Promise<string> {
  const before = await existing(ctx, p);
  const from = text(oldStr, 'old_str');
  const to = text(newStr, 'new_str');
  if (from === '') throw new MemoryToolError('No replacement was performed: `old_str` is empty');
  const found = occurrences(before, from);
  if (found.length === 0)
    throw new MemoryToolError(
      `No replacement was performed, old_str \`${from}\` did not appear verbatim in ${p.shown}.`,
    );
  if (found.length > 1)
    throw new MemoryToolError(
      `No replacement was performed. Multiple occurrences of old_str \`${from}\` in lines: ${found.join(', ')}. Please ensure it is unique`,
    );
  const at = before.indexOf(from);
  const after = before.slice(0, at) + to + before.slice(at + from.length);
  await writeToolFile(ctx, p, after, 'replace', via);
  const lines = after.split('\n');
  const first = Math.max(1, found[0]! - 2);
  const last = Math.min(lines.length, found[0]! + to.split('\n').length - 1 + 2);
  return `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${numbered(lines.slice(first - 1, last), first)}`;
}

/**
 * Insert `insert_text` after line `insert_line` (0: at the top).
 * @returns `The file <path> has been edited.` @throws MemoryToolError for a line outside [0, lines].
 */
export async function insert(
  ctx: MemoryContext,
  p: ToolPath,
  insertLine: unknown,
  insertText: unknown,
  via: string,
): Promise<string> {
  const before = await existing(ctx, p);
  const add = text(insertText, 'insert_text');
  const body = before.endsWith('\n') ? before.slice(0, -1) : before;
  const lines = body === '' ? [] : body.split('\n');
  if (typeof insertLine !== 'number' || !Number.isInteger(insertLine) || insertLine < 0 || insertLine > lines.length)
    throw new MemoryToolError(
      `Invalid \`insert_line\` parameter: ${String(insertLine)}. It should be within the range [0, ${lines.length}].`,
    );
  lines.splice(insertLine, 0, ...add.replace(/\n$/, '').split('\n'));
  await writeToolFile(ctx, p, `${lines.join('\n')}\n`, 'replace', via);
  return `The file ${p.shown} has been edited.`;
}
