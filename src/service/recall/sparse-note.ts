// The note a recall answer carries when the work tree is a sparse checkout that leaves memory files
// out: git tracks them, but they are not on disk, so recall cannot search them. The answer says so
// rather than answer as if the memory were whole (docs/bad-inputs.md R91). Read from the git index's
// skip-worktree entries (git/index-flags.ts sparseSkipped), only when the work tree has a sparse-checkout
// file; paths are masked as every recall name is (core/secret-mask.ts maskName).
// deps: core, engine/load (git context), git (index flags).
import { maskName } from '../../core/secret-mask.js';
import { gitContext } from '../../engine/load/git-context.js';
import { sparseSkipped } from '../../git/index-flags.js';
import type { MemoryContext } from '../shared/memory-context.js';

/** Most paths the note names before "and N more". */
const SHOWN = 3;

/**
 * The memory paths (workspace-relative) among a sparse checkout's skip-worktree entries `skipped`
 * (repo paths; a sparse index's folders end in `/`): files the layout reads, and folders that can
 * hold such files (named with their trailing `/`).
 */
export function memoryOutside(
  skipped: readonly string[],
  prefix: string,
  scope: { accept(path: string): boolean; descend?(folder: string): boolean },
): string[] {
  const out: string[] = [];
  const under = prefix ? `${prefix}/` : '';
  for (const p of skipped) {
    if (!p.startsWith(under)) continue;
    const rel = p.slice(under.length);
    if (rel.endsWith('/') ? (scope.descend?.(rel.slice(0, -1)) ?? true) : scope.accept(rel)) out.push(rel);
  }
  return out;
}

/**
 * "2 memory files are outside the sparse checkout and not searched: memory/team/a.md,
 * memory/team/b.md; `git sparse-checkout add <folder>` brings them in", or undefined outside git, in a
 * full checkout, or when the sparse set leaves no memory out. An index git can read but gitmem cannot
 * is not a recall error: the note is left out.
 */
export async function sparseNote(ctx: MemoryContext): Promise<string | undefined> {
  if (!ctx.git) return undefined;
  let outside: string[];
  try {
    const { repo, scope } = gitContext({ root: ctx.fs.root, loaded: ctx.loaded }, ctx.git);
    const skipped = await sparseSkipped(repo);
    if (skipped.length === 0) return undefined;
    outside = memoryOutside(skipped, scope.prefix, scope);
  } catch {
    return undefined;
  }
  if (outside.length === 0) return undefined;
  const files = outside.filter((p) => !p.endsWith('/')).length;
  const folders = outside.length - files;
  const what = [
    files ? `${files} memory file${files === 1 ? '' : 's'}` : '',
    folders ? `${folders} memory folder${folders === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const shown = outside.slice(0, SHOWN).map(maskName).join(', ');
  const more = outside.length > SHOWN ? `, and ${outside.length - SHOWN} more` : '';
  const verb = outside.length === 1 ? 'is' : 'are';
  return `${what} ${verb} outside the sparse checkout and not searched: ${shown}${more}; \`git sparse-checkout add <folder>\` (or \`git sparse-checkout disable\`) brings ${outside.length === 1 ? 'it' : 'them'} in`;
}
