// Where agents keep memory outside the repository, and what of it `gitmem import` brings in, read
// only (never written, moved or deleted): Claude Code's per-project auto memory folder (a MEMORY.md
// index and topic files with `name`, `description`, `type` front-matter) and Codex's memories folder
// (MEMORY.md, memory_summary.md). Locations as each host documents them; sources in
// docs/integrations.md. deps: core, parse (front-matter), service/export (pack: MEMORY.md items), node:fs, node:path.
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryType } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { toRelPath } from '../../core/paths.js';
import { parseFrontMatter } from '../../parse/front-matter.js';
import { exportedItems, memoryItems } from '../export/pack.js';

export const IMPORT_SOURCES = ['claude-code', 'codex'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** One memory found in a source folder. */
export interface FoundMemory {
  readonly text: string;
  readonly type: EntryType;
  readonly title?: string;
  /** File name inside the source folder, and the 1-based line where the memory starts. */
  readonly file: string;
  readonly line: number;
}

/** A source file larger than this is skipped (named in the result): memory files are small. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

/**
 * The folder a host keeps this repository's memory in. Claude Code: `~/.claude/projects/<project>/memory/`,
 * `<project>` the repository's absolute path with every character other than a letter or digit made `-`.
 * Codex: `memories/` in its home (`CODEX_HOME`, default `~/.codex`).
 */
export function defaultSourceDir(source: ImportSource, repoRoot: string, home: string, codexHome?: string): string {
  if (source === 'claude-code')
    return join(home, '.claude', 'projects', repoRoot.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
  return join(codexHome ?? join(home, '.codex'), 'memories');
}

/** Claude Code's memory types → gitmem entry types. */
const CLAUDE_TYPES: Record<string, EntryType> = {
  user: 'preference',
  feedback: 'preference',
  project: 'codebase_knowledge',
  reference: 'codebase_knowledge',
};

/** A MEMORY.md line that only points at a topic file (`- [Title](file.md) — …`): the topic file is the memory. */
const INDEX_LINE = /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\([^)\s]+\.md\)/;

/** `text` of a regular file in `dir` (not a link), or a note why it is skipped. */
function readSource(dir: string, name: string, skipped: string[]): string | undefined {
  const p = join(dir, name);
  let st;
  try {
    st = lstatSync(p);
  } catch {
    return undefined;
  }
  if (!st.isFile()) {
    skipped.push(`${name}: not a regular file`);
    return undefined;
  }
  if (st.size > MAX_SOURCE_BYTES) {
    skipped.push(`${name}: ${st.size} bytes, over ${MAX_SOURCE_BYTES}`);
    return undefined;
  }
  return readFileSync(p, 'utf8');
}

/**
 * The bullets and paragraphs of a MEMORY.md-like file, each a memory of `type` (of its exported block
 * alone when it holds one).
 */
function itemsOf(name: string, text: string, type: EntryType, skipIndexLines: boolean): FoundMemory[] {
  const fm = parseFrontMatter(text, toRelPath(name));
  const body = fm.text.slice(fm.bodyOffset);
  // a file holding a block `gitmem export` wrote: the memory is the block's items, the rest is the host's instructions
  const items = exportedItems(name, fm.text) ?? memoryItems(name, body, fm.bodyStartLine + 1);
  return items
    .filter((it) => !(skipIndexLines && INDEX_LINE.test(it.text)))
    .map((it) => ({
      text: it.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim(),
      type,
      file: name,
      line: it.line,
    }))
    .filter((m) => m.text !== '');
}

/**
 * The memories in `dir`, in a stable order (file name, then line).
 * @throws MemoryError `usage` when `dir` is not a folder.
 */
export function readSourceMemories(source: ImportSource, dir: string): { memories: FoundMemory[]; skipped: string[] } {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    names = readdirSync(dir).sort();
  } catch {
    throw new MemoryError('usage', `no ${source === 'claude-code' ? 'Claude Code' : 'Codex'} memory folder at ${dir}`, {
      hint: 'give the folder as PATH: gitmem import <source> PATH',
    });
  }
  const skipped: string[] = [];
  const memories: FoundMemory[] = [];
  if (source === 'codex') {
    for (const name of ['MEMORY.md', 'memory_summary.md']) {
      const text = names.includes(name) ? readSource(dir, name, skipped) : undefined;
      if (text !== undefined) memories.push(...itemsOf(name, text, 'learning', false));
    }
    return { memories, skipped };
  }
  for (const name of names.filter((n) => n.endsWith('.md'))) {
    const text = readSource(dir, name, skipped);
    if (text === undefined) continue;
    if (name === 'MEMORY.md') {
      memories.push(...itemsOf(name, text, 'learning', true));
      continue;
    }
    // a topic file: one memory, typed by its front-matter
    const fm = parseFrontMatter(text, toRelPath(name));
    const data = fm.frontMatter?.data ?? {};
    const str = (k: string) => (typeof data[k] === 'string' ? (data[k] as string).trim() : '');
    const body = fm.text.slice(fm.bodyOffset).trim() || str('description');
    if (!body) {
      skipped.push(`${name}: empty`);
      continue;
    }
    const title = str('name') || undefined;
    memories.push({
      text: body,
      type: CLAUDE_TYPES[str('type') || (data.metadata as { type?: string } | undefined)?.type || ''] ?? 'learning',
      ...(title ? { title } : {}),
      file: name,
      line: fm.bodyStartLine + 1,
    });
  }
  return { memories, skipped };
}
