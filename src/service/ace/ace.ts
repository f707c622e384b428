// ACE service (docs/DESIGN.md §6): applies the plans of src/ace to a Memory. One file per job:
// complete-task.ts (executor → reflector → curator), knowledge-queries.ts (playbook, history, tags,
// file knowledge, task context), dream-proposals.ts (write, promote, reject). This file holds what
// they share: the write options, where each kind lives, parsing a written text, and the committer
// (each change a checkpoint commit with Memory-* trailers when in git). Deterministic and offline.
// deps: core, ace, git, parse (rendering), service siblings.
import { type MemoryDoc } from '../../core/document.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { checkpoint as gitCheckpoint } from '../../git/checkpoint.js';
import type { GitIdentity } from '../../git/identity.js';
import { describeCommitted, type GitLocation } from '../git-ops/checkpoint.js';
import { gitContext } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';

export type {
  TaskInput,
  ToolUse,
  LinkedFile,
  Insight,
  PlaybookDelta,
  RejectedDelta,
  Classification,
} from '../../ace/types.js';
export type { RelatedPlaybook } from '../../ace/reflector.js';
export type { PlaybookSummary } from '../../ace/curator.js';
export type { FileKnowledge, TagUsage, PlaybookFilter } from '../../ace/knowledge.js';
export type { DreamProposal, DreamAction, DreamKind } from '../../ace/dreams.js';

/** Options shared by the writing operations. */
export interface AceWriteOptions {
  /** Record changes as checkpoint commits when in a git repository (default true). */
  readonly commit?: boolean;
  /** Commit even when the secret scan finds something (as `checkpoint --force`). */
  readonly force?: boolean;
  /** Commit author (default: git config, then the documented fallback). */
  readonly author?: Partial<GitIdentity>;
  /** Pin commit times (tests). */
  readonly timestamp?: { readonly seconds: number; readonly timezoneOffset: number };
  /** "Now" for created dates and entry ids (default: the system clock). */
  readonly now?: Date;
}

export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Folder (workspace-relative) where the layout keeps entries or playbook files. */
export function kindDir(memory: Pick<MemoryContext, 'loaded'>, kind: 'entry' | 'playbook'): string {
  const sub = kind === 'entry' ? 'entries' : 'playbook';
  const glob = memory.loaded.layout.kinds[kind][0] ?? '';
  const stat = glob.slice(0, Math.max(0, glob.search(/[*?[{]/))).replace(/\/$/, '');
  if (stat) return stat;
  return memory.loaded.layout.memoryDir ? `${memory.loaded.layout.memoryDir}/${sub}` : sub;
}

/** First path of a single-file kind (long_term, dreams) that exists, else the layout's first literal path. */
export function singleFilePath(
  memory: Pick<MemoryContext, 'loaded'>,
  ws: MemoryWorkspace,
  kind: 'long_term' | 'dreams',
): string {
  const existing = ws.docs().find((d) => d.kind === kind);
  if (existing) return existing.path;
  const literal = memory.loaded.layout.kinds[kind].find((g) => !/[*?[{]/.test(g));
  return (
    literal ??
    (memory.loaded.layout.memoryDir
      ? `${memory.loaded.layout.memoryDir}/${kind === 'dreams' ? 'DREAMS.md' : 'MEMORY.md'}`
      : kind === 'dreams'
        ? 'DREAMS.md'
        : 'MEMORY.md')
  );
}

/** Text as written to disk: BOM restored when the document had one. */
export const diskText = (d: MemoryDoc | undefined, text: string) => (d?.hasBom ? `\uFEFF${text}` : text);

interface Committer {
  readonly enabled: boolean;
  /** Commit exactly `paths` (workspace-relative); @returns the commit id, or null when nothing changed or not in git. */
  commit(
    paths: readonly string[],
    summary: string,
    reason: string,
    meta?: Record<string, string | undefined>,
  ): Promise<string | null>;
}

/**
 * A committer that records only the given memory paths (never other dirty memory files, never the
 * user's code), with Memory-Op/Kind/Id/Path trailers per file, Memory-Reason, and provenance lines
 * (`Memory-Agent: …`) in the body for history filters.
 */
export function committer(
  memory: Pick<MemoryContext, 'root' | 'loaded' | 'config'>,
  where: GitLocation,
  options: AceWriteOptions,
): Committer {
  const enabled = options.commit !== false && where.gitdir !== undefined && where.workTree !== undefined;
  return {
    enabled,
    async commit(paths, summary, reason, meta = {}) {
      if (!enabled || paths.length === 0) return null;
      const { repo, scope } = gitContext(memory, where);
      const wanted = new Set(paths);
      const body = Object.entries(meta)
        .filter(([, v]) => v !== undefined && v !== '')
        .map(([k, v]) => `${k}: ${oneLine(v!)}`)
        .join('\n');
      const res = await gitCheckpoint(repo, {
        scope: {
          prefix: scope.prefix,
          accept: (p) => wanted.has(p),
          descend: (d) => [...wanted].some((p) => p.startsWith(`${d}/`)),
        },
        message: body ? `${summary}\n\n${body}` : summary,
        reason,
        ...(options.force ? { force: true } : {}),
        ...(options.author ? { author: options.author } : {}),
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        describe: describeCommitted(memory),
      });
      return res.kind === 'committed' ? res.oid : null;
    },
  };
}
