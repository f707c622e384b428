// The memory diff between two commits, or a commit and the work tree, in memory terms (entries by
// id, front-matter fields, CURRENT_STATE sections).
// deps: core, git, engine (git-context), service (memory-text, Memory type).
import { DiagnosticCode } from '../../core/diagnostics.js';
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import { LineIndex } from '../../core/position.js';
import { decodeText } from '../../core/text.js';
import { memoryDiff, type DiffDoc, type MemoryDiff } from '../../git/diff.js';
import { readChangedTrees, readTreeAt } from '../../git/history.js';
import { gitContext, type GitLocation } from '../../engine/load/git-context.js';
import type { Memory } from '../memory.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { parseMemoryText } from './memory-text.js';

export type { MemoryDiff, MemoryDiffChange } from '../../git/diff.js';
export type { GitLocation } from '../../engine/load/git-context.js';

/** `## Section` → its text, for CURRENT_STATE (docs/DESIGN.md §5). */
function sectionsOf(d: MemoryDoc): Record<string, string> {
  const li = new LineIndex(d.text);
  const out: Record<string, string> = {};
  const hs = d.headings.filter((h) => h.depth <= 2);
  hs.forEach((h, i) => {
    if (h.depth !== 2) return;
    const start = li.offsetAt({ line: h.range.start.line + 1, character: 0 });
    const next = hs[i + 1];
    const end = next ? li.offsetAt({ line: next.range.start.line, character: 0 }) : d.text.length;
    out[h.text] = d.text.slice(start, Math.max(start, end)).replace(/\r\n/g, '\n');
  });
  // The `> Last updated:` line is a field too.
  const m = /^>\s*Last updated:\s*(.*)$/im.exec(d.text);
  if (m) out['Last updated'] = m[1]!.trim();
  return out;
}

function diffDoc(memory: Pick<Memory, 'loaded' | 'config'>, path: string, text: string): DiffDoc | undefined {
  const d = parseMemoryText(memory, path, text);
  if (!d) return undefined;
  const typed = d.kind === 'entry' || d.kind === 'playbook';
  return {
    kind: d.kind,
    ...(typed && d.meta.id !== undefined ? { id: d.meta.id } : {}),
    ...(d.frontMatter?.data ? { data: d.frontMatter.data } : {}),
    body: bodyOf(d),
    ...(d.kind === 'current_state' ? { sections: sectionsOf(d) } : {}),
  };
}

/**
 * The work tree's memory files as git sees them: path → text (BOM kept). The loader leaves out a file
 * over limits.maxFileBytes, but git has it, so it is read here as {@link readTreeAt} reads a blob (a
 * file with NUL bytes is left out on both sides); without this, a committed note that grew past the
 * cap was reported removed while it sat in the work tree (docs/bad-inputs.md B49).
 */
async function workTreeFiles(ctx: MemoryContext): Promise<Map<string, string>> {
  const raw = await ctx.read();
  const files = new Map<string, string>(raw.files.map((f) => [f.path as string, f.text]));
  for (const s of raw.skipped) {
    if (s.code !== DiagnosticCode.fileTooLarge) continue;
    const bytes = await ctx.fs.read(s.path);
    const decoded = bytes ? decodeText(bytes) : undefined;
    if (decoded && decoded.problem !== 'binary') files.set(s.path, decoded.text);
  }
  return files;
}

/** A memory diff with the revisions it compared. `to` is null for the work tree. */
export interface MemoryDiffReport extends MemoryDiff {
  readonly from: { readonly rev: string; readonly oid: string };
  readonly to: { readonly rev: string; readonly oid: string } | null;
}

/** `diffMemory`'s input: the repository and the two revisions (`to` absent: the work tree). */
export interface DiffInput {
  readonly git: GitLocation;
  /** The older revision (commit, branch, tag, HEAD~N). */
  readonly from: string;
  /** The newer revision; absent: the work tree. */
  readonly to?: string | undefined;
}

/**
 * Memory diff between `from` and `to` (or the work tree when `to` is omitted), in memory terms.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`.
 */
export async function diffMemory(ctx: MemoryContext, input: DiffInput): Promise<MemoryDiffReport> {
  const { git: where, from, to } = input;
  const memory = ctx;
  const { repo, scope } = gitContext(memory, where);
  const parse = (path: string, text: string) => diffDoc(memory, path, text);
  if (to !== undefined) {
    // Two commits: only the files whose blobs differ are read (the others cannot be in the diff).
    const t = await readChangedTrees(repo, scope, from, to);
    const diff = memoryDiff(t.from.files, t.to.files, parse);
    return { from: { rev: from, oid: t.from.oid }, to: { rev: to, oid: t.to.oid }, ...diff };
  }
  const a = await readTreeAt(repo, scope, from);
  const diff = memoryDiff(a.files, await workTreeFiles(ctx), parse);
  return { from: { rev: from, oid: a.oid }, to: null, ...diff };
}
