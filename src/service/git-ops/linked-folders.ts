// What a symlinked memory folder does to git (docs/bad-inputs.md R02), for doctor and validate: git
// records a link, not the files behind it, so a commit of the work tree deletes the memory tracked at
// the link's path, or never holds the memory written through it. Checkpoint refuses (git/checkpoint.ts);
// these say it before anyone checkpoints. deps: core, git, engine (git-context), service (Memory type).
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { toRelPath } from '../../core/paths.js';
import { linkedFolderFix } from '../../git/checkpoint.js';
import { memoryStatus, type LinkedFolder } from '../../git/status.js';
import { gitContext, type GitLocation } from '../../engine/load/git-context.js';
import type { Memory } from '../memory.js';

/** A linked folder with what it does to git and the fix, in words. */
export interface LinkedFolderReport extends LinkedFolder {
  readonly effect: string;
  readonly fix: string;
}

/** @returns the symlinked memory folders git would not follow; [] outside git. */
export async function linkedMemoryFolders(
  memory: Pick<Memory, 'root' | 'loaded'>,
  where: GitLocation,
): Promise<LinkedFolderReport[]> {
  if (!where.gitdir || !where.workTree) return [];
  const { repo, scope } = gitContext(memory, where);
  const status = await memoryStatus(repo, scope);
  return status.linkedFolders.map((l) => ({
    ...l,
    effect:
      l.tracked > 0
        ? `git sees the ${l.tracked} memory file${l.tracked === 1 ? '' : 's'} tracked under ${l.path}/ as deleted and records the link instead; gitmem checkpoint and sync refuse until it is a folder again`
        : `git records the link, not the memory files behind it; gitmem checkpoint and sync refuse until it is a folder again`,
    fix: linkedFolderFix(l),
  }));
}

/** The linked folders as validate diagnostics (errors: checkpoint refuses while they stand). */
export async function linkedFolderDiagnostics(
  memory: Pick<Memory, 'root' | 'loaded'>,
  where: GitLocation,
): Promise<Diagnostic[]> {
  return (await linkedMemoryFolders(memory, where)).map((l) => ({
    path: toRelPath(l.path),
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error' as const,
    code: DiagnosticCode.linkedFolder,
    message: `${l.path} is a symbolic link to ${l.target}: ${l.effect}; fix: ${l.fix}`,
    data: { target: l.target, tracked: l.tracked },
  }));
}
