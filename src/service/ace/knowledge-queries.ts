// The read side of ACE: playbook entries and their history, tags as entities, what memory knows about
// a code path, and the context for starting a task. Reads only. deps: core, ace, git, service.
import { forAgent, nameForAgent, tagForAgent } from '../../core/agent-text.js';
import { MemoryError } from '../../core/errors.js';
import { toRelPath } from '../../core/paths.js';
import { playbookSummaries, type PlaybookSummary } from '../../ace/curator.js';
import { tagCatalogue } from '../../core/tags.js';
import {
  fileKnowledge as fileKnowledgeOf,
  listPlaybook,
  recommendFiles,
  tagUsage,
  type FileKnowledge,
  type PlaybookFilter,
  type TagUsage,
} from '../../ace/knowledge.js';
import { memoryHistory, type GitLocation } from '../git-ops/history.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { recall } from '../recall/recall.js';
import type { RecallMode, RecallResult } from '../recall/types.js';
import { kindDir } from './ace.js';
import { maskName } from '../../core/secret-mask.js';
import { maskFileKnowledge } from '../trust/shown-names.js';

// ---------------------------------------------------------------------------------------------
// Playbook, tags, files, context

/** Playbook entries (filtered by category / tag), highest priority first, as shown ({@link playbookShown}). */
export async function listPlaybookEntries(ctx: MemoryContext, filter: PlaybookFilter = {}): Promise<PlaybookSummary[]> {
  return listPlaybook(await ctx.workspace(), filter).map(playbookShown);
}

/**
 * A playbook entry as `gitmem playbook` shows it (R183): names masked, its title, category and author
 * labelled when they read as an instruction, its body as `get` gives it (masked, flagged lines labelled).
 */
function playbookShown(p: PlaybookSummary): PlaybookSummary {
  return {
    ...p,
    id: maskName(p.id),
    path: maskName(p.path),
    title: nameForAgent(p.title),
    category: nameForAgent(p.category),
    tags: p.tags.map(tagForAgent),
    supporting: p.supporting.map(maskName),
    ...(p.createdBy !== undefined ? { createdBy: nameForAgent(p.createdBy) } : {}),
    body: forAgent(p.body),
  };
}

/** One playbook change from the git history. */
export interface PlaybookChange {
  readonly commit: string;
  readonly date: string;
  readonly author: string;
  /** `Memory-Agent` from the commit body, else the author name. */
  readonly agent: string;
  readonly op: 'add' | 'update' | 'delete';
  readonly id: string | null;
  readonly path: string;
  readonly summary: string;
  readonly reason: string | null;
}

/** `playbookHistory`'s input: the repository and the filter. */
export interface PlaybookHistoryInput extends PlaybookHistoryFilter {
  readonly git: GitLocation;
}

export interface PlaybookHistoryFilter {
  readonly op?: 'add' | 'update' | 'delete';
  readonly agent?: string;
  /** Inclusive `YYYY-MM-DD` bounds on the commit date. */
  readonly since?: string;
  readonly until?: string;
  /** Only this playbook id. */
  readonly id?: string;
  /** Most commits inspected (default 200). */
  readonly limit?: number;
}

/**
 * Playbook changes from the Memory-* trailers of the memory history (commits without trailers count
 * by their changed files), newest first, filtered by operation, agent and date.
 * @throws MemoryError `git.not-a-repository`.
 */
export async function playbookHistory(ctx: MemoryContext, input: PlaybookHistoryInput): Promise<PlaybookChange[]> {
  const { git: where, ...filter } = input;
  const pbDir = kindDir(ctx, 'playbook');
  let log;
  try {
    log = await memoryHistory(ctx, { git: where, path: pbDir, limit: filter.limit ?? 200 });
  } catch (e) {
    // A workspace whose playbook folder was never committed has no history yet.
    if (e instanceof MemoryError && e.code === 'git.not-found') return [];
    throw e;
  }
  const out: PlaybookChange[] = [];
  const agentWanted = filter.agent?.trim().toLowerCase();
  for (const c of log) {
    const agent = /^Memory-Agent:\s*(.+)$/m.exec(c.body)?.[1]?.trim() ?? c.author.name;
    const date = c.author.date;
    const rows: Array<{ op: PlaybookChange['op']; path: string; id: string | null }> = c.memory.length
      ? c.memory
          .filter((m) => m.kind === 'playbook' || m.path.startsWith(`${pbDir}/`))
          .map((m) => ({ op: m.op, path: m.path, id: m.id ?? null }))
      : c.files
          .filter((f) => f.path.startsWith(`${pbDir}/`))
          .map((f) => ({
            op: f.change === 'added' ? 'add' : f.change === 'deleted' ? 'delete' : 'update',
            path: f.path,
            id: null,
          }));
    for (const r of rows) {
      // A soft delete (active: false) is an update in git terms; the summary says which it was.
      const op: PlaybookChange['op'] =
        r.op === 'update' && /^memory: playbook delete /.test(c.summary) ? 'delete' : r.op;
      if (filter.op && op !== filter.op) continue;
      if (agentWanted && agent.toLowerCase() !== agentWanted && c.author.name.toLowerCase() !== agentWanted) continue;
      if (filter.since && date.slice(0, 10) < filter.since.slice(0, 10)) continue;
      if (filter.until && date.slice(0, 10) > filter.until.slice(0, 10)) continue;
      if (filter.id && r.id !== filter.id) continue;
      out.push({
        commit: c.oid,
        date,
        author: c.author.name,
        agent,
        op,
        id: r.id,
        path: r.path,
        // Commit text a teammate or their agent wrote: labelled when it orders, as `gitmem log` shows it (R103, R183).
        summary: nameForAgent(c.summary),
        reason: c.reason === undefined ? null : nameForAgent(c.reason),
      });
    }
  }
  return out;
}

/** A tag as an entity: its catalogue description and category (tags.md) and its usage. */
export interface TagEntity extends TagUsage {
  readonly name: string;
  readonly description: string | null;
  readonly category: string | null;
  /** Entries + playbook entries carrying the tag (= `count`). */
  readonly usageCount: number;
  /** Listed in tags.md. */
  readonly catalogued: boolean;
}

/**
 * Tags with usage counts over entries and playbook entries, joined with the tag catalogue (tags.md
 * under the memory folder, when present): catalogued tags nobody uses yet come last with usageCount 0.
 */
export async function listTags(ctx: MemoryContext): Promise<TagEntity[]> {
  const ws = await ctx.workspace();
  const cat = tagCatalogue(ws)?.tags ?? new Map();
  const used = tagUsage(ws);
  const entity = (u: TagUsage): TagEntity => {
    const info = cat.get(u.tag);
    // A tag holding a credential is shown masked (core/secret-mask.ts maskName), as recall shows it.
    const shown = maskName(u.tag);
    return {
      name: shown,
      // Catalogue text as shown: masked, and labelled when it reads as an instruction (R187).
      description: info?.description ? nameForAgent(info.description) : null,
      category: info?.category ? nameForAgent(info.category) : null,
      usageCount: u.count,
      catalogued: info !== undefined,
      ...u,
      tag: shown,
    };
  };
  const seen = new Set(used.map((u) => u.tag));
  const unused = [...cat.keys()]
    .filter((t) => !seen.has(t))
    .sort()
    .map((tag) => entity({ tag, count: 0, entries: 0, playbook: 0 }));
  return [...used.map(entity), ...unused];
}

/**
 * What memory knows about a code path (file, folder or glob).
 * @throws MemoryError `usage` for an empty path, `path.outside-root` for an absolute path or one with
 *   a `..` segment (the same confinement check as every file read, U58), `usage` for a glob
 *   core/glob-match.ts refuses.
 */
export async function fileKnowledge(ctx: MemoryContext, input: { readonly path: string }): Promise<FileKnowledge> {
  const { path } = input;
  if (!path || !path.trim())
    throw new MemoryError('usage', 'a code path is required, e.g. gitmem files src/db/pool.ts');
  const trimmed = path.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (trimmed !== '.' && trimmed !== '') toRelPath(trimmed);
  // Shown names masked as recall masks them (R60): a path, id or title holding a credential.
  return maskFileKnowledge(fileKnowledgeOf(await ctx.workspace(), path));
}

/** Context for starting a task: memories, playbook entries and recommended files. */
export interface TaskContext {
  readonly task: string;
  readonly memories: readonly RecallResult[];
  /** With `budget`: the memories as a `### Recalled Context` block (the recall packer). */
  readonly block?: string;
  readonly playbook: ReadonlyArray<{
    id: string;
    path: string;
    title: string;
    category: string;
    priority: number;
    snippet: string;
    score: number;
    /** Trust, as on a recall result: `unreviewed` or `incoming` when not `reviewed`; the cited code's state. */
    review?: RecallResult['review'];
    code?: RecallResult['code'];
  }>;
  readonly files: ReadonlyArray<{ path: string; score: number; from: string[] }>;
  readonly mode: RecallMode;
  readonly degraded: string | null;
  readonly tookMs: number;
}

/** `taskContext`'s input: the task description, how many of each (default 5), and a byte budget for a block. */
export interface TaskContextInput {
  readonly task: string;
  readonly limit?: number;
  readonly budget?: number;
}

/**
 * Top-k memories (entries, long-term, daily notes, notes) and playbook entries for a task
 * description by hybrid recall, plus files recommended from the recalled memories' links.
 * @throws MemoryError `usage` for an empty task.
 */
export async function taskContext(ctx: MemoryContext, input: TaskContextInput): Promise<TaskContext> {
  const { task, ...options } = input;
  const t0 = performance.now();
  if (!task || !task.trim())
    throw new MemoryError('usage', 'describe the task, e.g. gitmem context "speed up the export job"');
  const k = options.limit ?? 5;
  const mems = await recall(ctx, task, {
    kinds: ['entry', 'long_term', 'daily', 'note'],
    limit: k,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    // For an agent's task; a block (budget) is what a prompt hook injects (service/trust/).
    audience: options.budget !== undefined ? 'injected' : 'agent',
    channel: 'context',
  });
  const pb = await recall(ctx, task, { kinds: ['playbook'], limit: k * 2 });
  const ws = await ctx.workspace();
  const playbook: TaskContext['playbook'][number][] = [];
  const seen = new Set<string>();
  for (const r of pb.results) {
    const d = ws.tryGet(r.path as never);
    const id = d?.meta.id ?? r.path;
    if (seen.has(id)) continue;
    seen.add(id);
    const s = d ? playbookSummaries([d])[0] : undefined;
    // Shown to the agent as recall shows names: masked, and labelled when it orders (R102).
    playbook.push({
      id: maskName(id),
      path: maskName(r.path),
      title: nameForAgent(s?.title ?? id),
      category: s?.category ?? '',
      priority: s?.priority ?? 0,
      snippet: r.snippet,
      score: r.score,
      ...(r.review ? { review: r.review } : {}),
      ...(r.code ? { code: r.code } : {}),
    });
    if (playbook.length >= k) break;
  }
  return {
    task,
    memories: mems.results,
    ...(mems.context ? { block: mems.context.text } : {}),
    playbook,
    files: recommendFiles(mems.results, ws),
    mode: mems.mode,
    degraded: mems.degraded ?? pb.degraded,
    tookMs: Number((performance.now() - t0).toFixed(2)),
  };
}
