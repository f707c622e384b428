// ACE service (docs/DESIGN.md §6): applies the plans of src/ace to a Memory — complete-task (executor →
// reflector → curator, each change a checkpoint commit with Memory-* trailers when in git),
// playbook listing and history, tag usage, file knowledge, task context, and dreams (write
// proposals, promote with a diff, reject). Deterministic and offline.
// deps: core, ace, git, parse (rendering), service siblings.
import { firstFreeId } from '../shared/entry-id.js';
import { compareClaims, findPossibleConflicts, type PossibleConflict } from '../shared/conflict.js';
import { ENTRY_TYPES, type EntryType, type MemoryDoc } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { bodyText, curate, playbookSummaries, type PlaybookSummary } from '../../ace/curator.js';
import {
  applyAction,
  parseDreams,
  planDreams,
  staleEvidence,
  withProposals,
  withProposalStatus,
  type DreamAction,
  type DreamKind,
  type DreamProposal,
} from '../../ace/dreams.js';
import { classifyTask, extractFiles, planEntry } from '../../ace/executor.js';
import { withListItem, withScalar } from '../../ace/front-matter-edit.js';
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
import { extractInsights, selectRelated, type PlaybookHit, type RelatedPlaybook } from '../../ace/reflector.js';
import { unifiedDiff } from '../../ace/unified-diff.js';
import type {
  Classification,
  Insight,
  LinkedFile,
  PlaybookDelta,
  RejectedDelta,
  TaskInput,
  ToolUse,
} from '../../ace/types.js';
import { checkpoint as gitCheckpoint } from '../../git/checkpoint.js';
import type { GitIdentity } from '../../git/identity.js';
import { renderWithFrontMatter } from '../../parse/serialize.js';
import { assertNoUncommittedEdits, gitContext, memoryHistory, type GitLocation } from '../git-ops/git-ops.js';
import { parseFiles } from '../../engine/load.js';
import type { Memory } from '../memory.js';
import type { RecallMode, RecallResult } from '../recall/recall.js';
import { normaliseForDedupe, tokenJaccard } from '../shared/text-utils.js';

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

/** A playbook delta as applied: the file it wrote and the commit that records it. */
export type AppliedDelta = PlaybookDelta & { readonly path: string; readonly commit: string | null };

/** A related playbook entry and whether the new memory id was added to its `supporting`. */
export interface RelatedPlaybookResult extends RelatedPlaybook {
  readonly title: string;
  readonly supportingAdded: boolean;
}

/**
 * Result of {@link completeTask}. Stable shape (the MCP tool `memory_complete_task` returns it):
 * ```
 * { status: 'created' | 'duplicate', memoryId, path, duplicateOf?, type, classification: {scores, rules},
 *   filesLinked: [{path, relation, lines?}], tags: string[], insights: [{kind, text, error?, from}],
 *   relatedPlaybook: [{id, path, title, score, shared, vector, supportingAdded}],
 *   deltas: [{op: 'add'|'update'|'delete', id, path, reason, commit, …}], rejected: [{delta, reason}],
 *   commit: string | null, commits: string[], recall: {mode, degraded}, tookMs }
 * ```
 */
export interface CompleteTaskResult {
  /** `duplicate`: an entry of the same type already says this; nothing was written. */
  readonly status: 'created' | 'duplicate';
  /** The new entry's id, or the existing one's for a duplicate. */
  readonly memoryId: string;
  readonly path: string;
  readonly duplicateOf?: string;
  /** A same-type, same-tag entry on the same subject that says something different; nothing merged. */
  readonly possible_conflict?: PossibleConflict;
  readonly type: EntryType;
  readonly classification: Pick<Classification, 'scores' | 'rules'>;
  readonly filesLinked: readonly LinkedFile[];
  readonly tags: readonly string[];
  readonly insights: readonly Insight[];
  readonly relatedPlaybook: readonly RelatedPlaybookResult[];
  readonly deltas: readonly AppliedDelta[];
  readonly rejected: readonly RejectedDelta[];
  /** The last commit written (HEAD after the call); null outside git, with `commit: false`, or for a duplicate. */
  readonly commit: string | null;
  /** Every commit written, in order: entry, supporting links, one per delta. */
  readonly commits: readonly string[];
  /** How related playbook entries were found. */
  readonly recall: { readonly mode: RecallMode; readonly degraded: string | null };
  readonly tookMs: number;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Check and normalise a task object (from JSON, stdin or an MCP call).
 * @throws MemoryError `usage` naming the bad field.
 */
export function parseTaskInput(value: unknown): TaskInput {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new MemoryError('usage', 'a task must be a JSON object with goal and result');
  const v = value as Record<string, unknown>;
  const str = (k: string, required = false): string | undefined => {
    const x = v[k];
    if (x === undefined || x === null) {
      if (required)
        throw new MemoryError('usage', `task.${k} is required`, {
          hint: 'give at least {"goal": "...", "result": "..."}',
        });
      return undefined;
    }
    if (typeof x !== 'string') throw new MemoryError('usage', `task.${k} must be a string`);
    if (required && !x.trim()) throw new MemoryError('usage', `task.${k} is empty`);
    if (x.length > 20_000) throw new MemoryError('usage', `task.${k} is longer than 20000 characters`);
    return x;
  };
  const goal = str('goal', true)!;
  const result = str('result', true)!;
  let tools: ToolUse[] | undefined;
  if (v.tool_usage !== undefined && v.tool_usage !== null) {
    if (!Array.isArray(v.tool_usage))
      throw new MemoryError('usage', 'task.tool_usage must be an array of {tool_name, arguments, result?}');
    tools = [];
    v.tool_usage.forEach((t, i) => {
      if (!t || typeof t !== 'object' || Array.isArray(t))
        throw new MemoryError('usage', `task.tool_usage[${i}] must be an object`);
      const o = t as Record<string, unknown>;
      const name = o.tool_name ?? o.name ?? o.tool;
      if (typeof name !== 'string' || !name.trim())
        throw new MemoryError('usage', `task.tool_usage[${i}].tool_name must be a non-empty string`);
      tools!.push({
        tool_name: name,
        arguments: (o.arguments ?? o.args ?? o.input ?? o.parameters) as ToolUse['arguments'],
        ...(o.result !== undefined ? { result: o.result } : o.output !== undefined ? { result: o.output } : {}),
      });
    });
  }
  let tags: string[] | undefined;
  if (v.tags !== undefined && v.tags !== null) {
    if (!Array.isArray(v.tags) || v.tags.some((t) => typeof t !== 'string'))
      throw new MemoryError('usage', 'task.tags must be an array of strings');
    tags = v.tags as string[];
  }
  const type = str('type');
  if (type !== undefined && !(ENTRY_TYPES as readonly string[]).includes(type)) {
    throw new MemoryError('usage', `unknown memory type "${type}"`, { hint: `use one of: ${ENTRY_TYPES.join(', ')}` });
  }
  const feedback = str('feedback');
  const agent = str('agent');
  const session = str('session');
  const task = str('task');
  const cwd = str('cwd');
  return {
    goal,
    result,
    ...(tools ? { tool_usage: tools } : {}),
    ...(feedback !== undefined ? { feedback } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(session !== undefined ? { session } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(tags ? { tags } : {}),
    ...(type !== undefined ? { type: type as EntryType } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

/** Folder (workspace-relative) where the layout keeps entries or playbook files. */
function kindDir(memory: Memory, kind: 'entry' | 'playbook'): string {
  const sub = kind === 'entry' ? 'entries' : 'playbook';
  const glob = memory.loaded.layout.kinds[kind][0] ?? '';
  const stat = glob.slice(0, Math.max(0, glob.search(/[*?[{]/))).replace(/\/$/, '');
  if (stat) return stat;
  return memory.loaded.layout.memoryDir ? `${memory.loaded.layout.memoryDir}/${sub}` : sub;
}

/** First path of a single-file kind (long_term, dreams) that exists, else the layout's first literal path. */
function singleFilePath(memory: Memory, ws: MemoryWorkspace, kind: 'long_term' | 'dreams'): string {
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

/** Parse one file's text as the loader would (for follow-up front-matter edits). */
function parseText(memory: Memory, path: string, text: string): MemoryDoc | undefined {
  const rel = toRelPath(path);
  const kind = classify(rel, memory.loaded.layout);
  if (!kind) return undefined;
  return parseFiles([{ path: rel, kind, text, hash: contentHash(text) }], memory.config).tryGet(rel);
}

/** Text as written to disk: BOM restored when the document had one. */
const diskText = (d: MemoryDoc | undefined, text: string) => (d?.hasBom ? `\uFEFF${text}` : text);

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
function committer(memory: Memory, where: GitLocation, options: AceWriteOptions): Committer {
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
        describe: ({ path, text }) => {
          const kind = classify(path, memory.loaded.layout);
          if (kind !== 'entry' && kind !== 'playbook') return kind ? { kind } : undefined;
          const d = parseText(memory, path, text);
          return { kind, ...(d?.meta.id !== undefined ? { id: d.meta.id } : {}) };
        },
      });
      return res.kind === 'committed' ? res.oid : null;
    },
  };
}

/** Entry text compared for dedupe: goal/result/feedback from front-matter when present, else the body. */
function dedupeTextOf(d: MemoryDoc): string {
  const data = d.frontMatter?.data ?? {};
  if (typeof data.goal === 'string' && typeof data.result === 'string') {
    return [data.goal, data.result, typeof data.feedback === 'string' ? data.feedback : '']
      .map((s) => oneLine(String(s)))
      .join(' \n ');
  }
  return bodyText(d);
}

/**
 * Complete a task (docs/DESIGN.md §6), deterministically and offline:
 * 1. **Executor** — files and relations from `tool_usage`, type from rules (or `input.type`), tags,
 *    dedupe against entries of the same type (normalised text hash or token Jaccard ≥ config
 *    `dedupe.jaccard`), entry written to `<entries>/<YYYY-MM-DD-slug>.md` and committed;
 * 2. **Reflector** — related playbook entries by hybrid recall (keyword-only when the model is
 *    unavailable), the new id added to their `supporting` (one commit), insights extracted;
 * 3. **Curator** — playbook deltas validated and applied, one commit each.
 * Outside git (or with `commit: false`) the files are written and `commit` is null.
 *
 * Recall runs before anything is written, so the index is not rebuilt mid-call.
 * @param where the repository around the workspace (`{gitdir, workTree}`; both undefined outside git).
 * @param input a {@link TaskInput} or any value (checked by {@link parseTaskInput}).
 * @throws MemoryError `usage` for a malformed task; `git.*` errors from committing (files stay written).
 */
export async function completeTask(
  memory: Memory,
  where: GitLocation,
  input: TaskInput | unknown,
  options: AceWriteOptions = {},
): Promise<CompleteTaskResult> {
  const t0 = performance.now();
  const task = parseTaskInput(input);
  const now = options.now ?? new Date();
  const ws = await memory.workspace();

  // Executor: files, type, insights, tags, entry.
  const files = extractFiles(task.tool_usage, { cwd: task.cwd ?? memory.root });
  const classification = classifyTask(task, files);
  const type = task.type ?? classification.type;
  const insights = extractInsights(task, type);
  const knownTags = [
    ...new Set(ws.docs().flatMap((d) => (d.kind === 'entry' || d.kind === 'playbook' ? d.meta.tags : []))),
  ];
  const plan = planEntry({ ...task, type }, { now, files, insights, knownTags });
  const common = {
    type,
    classification: { scores: classification.scores, rules: classification.rules },
    filesLinked: plan.files,
    tags: plan.tags,
    insights,
  };

  // Dedupe within the type, as `remember` does.
  const norm = normaliseForDedupe(plan.dedupeText);
  for (const d of ws.docs()) {
    if (d.kind !== 'entry' || d.meta.type !== type || d.meta.duplicateOf) continue;
    const other = dedupeTextOf(d);
    const near =
      tokenJaccard(other, plan.dedupeText) >= memory.config.dedupe.jaccard &&
      compareClaims(other, plan.dedupeText).reasons.length === 0;
    if (normaliseForDedupe(other) === norm || near) {
      return {
        status: 'duplicate',
        memoryId: d.meta.id ?? d.path,
        path: d.path,
        duplicateOf: d.meta.id ?? d.path,
        ...common,
        relatedPlaybook: [],
        deltas: [],
        rejected: [],
        commit: null,
        commits: [],
        recall: { mode: 'keyword', degraded: null },
        tookMs: Number((performance.now() - t0).toFixed(2)),
      };
    }
  }

  // Reflector, part 1: related playbook entries by hybrid recall (before any write).
  const query = oneLine(`${plan.title}. ${task.goal} ${task.result}`).slice(0, 500);
  const rec = await memory.recall(query, { kinds: ['playbook'], limit: 10 });
  const hits: PlaybookHit[] = [];
  for (const r of rec.results) {
    const d = ws.tryGet(r.path as never);
    if (!d || d.kind !== 'playbook' || d.meta.active === false) continue;
    hits.push({
      id: d.meta.id ?? d.path,
      path: d.path,
      score: r.score,
      keyword: r.scores.keyword,
      vector: r.scores.vector,
      text: `${d.meta.title ?? ''} ${d.text}`,
    });
  }
  const related = selectRelated(`${task.goal} ${task.result} ${task.feedback ?? ''}`, hits);

  // Executor: write the entry.
  const dir = kindDir(memory, 'entry');
  const id = firstFreeId(
    plan.baseId,
    (x) => ws.byId(x).length > 0 || ws.tryGet(`${dir}/${x}.md` as never) !== undefined,
  );
  const entryPath = `${dir}/${id}.md`;
  await memory.writeMemoryFile(entryPath, renderWithFrontMatter({ id, ...plan.data }, plan.body));
  const git = committer(memory, where, options);
  const meta = {
    'Memory-Agent': task.agent,
    'Memory-Task': task.task,
    'Memory-Session': task.session,
    'Memory-Origin': 'complete-task',
  };
  const commits: string[] = [];
  const record = async (paths: string[], summary: string, reason: string) => {
    const oid = await git.commit(paths, summary, reason, meta);
    if (oid) commits.push(oid);
    return oid;
  };
  await record(
    [entryPath],
    `memory: complete-task ${id} (${type})`,
    `complete-task: ${oneLine(task.goal).slice(0, 160)}`,
  );

  // Reflector, part 2: link the new memory from the related playbook entries.
  const current = new Map<string, string>();
  const relatedOut: RelatedPlaybookResult[] = [];
  const linked: string[] = [];
  for (const r of related) {
    const d = ws.tryGet(r.path as never)!;
    const next = withListItem(d, 'supporting', id);
    const added = next !== undefined && next !== d.text;
    if (added) {
      await memory.writeMemoryFile(d.path, diskText(d, next));
      current.set(d.path, next);
      linked.push(d.path);
    }
    relatedOut.push({ ...r, title: d.meta.title ?? d.headings[0]?.text ?? r.id, supportingAdded: added });
  }
  if (linked.length) {
    await record(
      linked,
      `memory: link ${id} to playbook ${related
        .filter((r) => linked.includes(r.path))
        .map((r) => r.id)
        .join(', ')}`,
      `supporting evidence from complete-task ${id}`,
    );
  }

  // Curator: deltas, validated, applied one commit each.
  const playbook = playbookSummaries(ws.docs());
  const { deltas, rejected } = curate({
    memoryId: id,
    type,
    tags: plan.tags,
    insights,
    related,
    playbook,
    ...(task.feedback ? { feedback: task.feedback } : {}),
  });
  const applied: AppliedDelta[] = [];
  const pbDir = kindDir(memory, 'playbook');
  const day = now.toISOString().slice(0, 10);
  for (const delta of deltas) {
    let path: string;
    if (delta.op === 'add') {
      path = `${pbDir}/${delta.id}.md`;
      const data = {
        id: delta.id,
        category: delta.category,
        title: delta.title,
        priority: delta.priority,
        tags: [...delta.tags],
        supporting: [...delta.supporting],
        active: true,
        created: day,
        created_by: task.agent ?? 'gitmem',
      };
      await memory.writeMemoryFile(path, renderWithFrontMatter(data, `\n${delta.text}\n\nLearned from [[${id}]].\n`));
    } else {
      path = delta.path;
      const before = ws.tryGet(path as never)!;
      const text = current.get(path) ?? before.text;
      let doc = parseText(memory, path, text)!;
      let next =
        delta.op === 'update'
          ? `${text.replace(/\s*$/, '')}${doc.eol}${delta.append}${doc.eol}`
          : withScalar(doc, 'active', false)!;
      doc = parseText(memory, path, next)!;
      next = withScalar(doc, 'updated', day) ?? next;
      await memory.writeMemoryFile(path, diskText(before, next));
      current.set(path, next);
    }
    const oid = await record([path], `memory: playbook ${delta.op} ${delta.id}`, delta.reason);
    applied.push({ ...delta, path, commit: oid });
  }

  const conflict = findPossibleConflicts(
    ws,
    { text: plan.dedupeText, type, tags: plan.tags, id, path: entryPath as never },
    1,
  )[0];
  return {
    status: 'created',
    memoryId: id,
    path: entryPath,
    ...(conflict ? { possible_conflict: conflict } : {}),
    ...common,
    relatedPlaybook: relatedOut,
    deltas: applied,
    rejected,
    commit: commits.length ? commits[commits.length - 1]! : null,
    commits,
    recall: { mode: rec.mode, degraded: rec.degraded },
    tookMs: Number((performance.now() - t0).toFixed(2)),
  };
}

// ---------------------------------------------------------------------------------------------
// Playbook, tags, files, context

/** Playbook entries (filtered by category / tag), highest priority first. */
export async function listPlaybookEntries(memory: Memory, filter: PlaybookFilter = {}): Promise<PlaybookSummary[]> {
  return listPlaybook(await memory.workspace(), filter);
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
export async function playbookHistory(
  memory: Memory,
  where: GitLocation,
  filter: PlaybookHistoryFilter = {},
): Promise<PlaybookChange[]> {
  const pbDir = kindDir(memory, 'playbook');
  let log;
  try {
    log = await memoryHistory(memory, where, { path: pbDir, limit: filter.limit ?? 200 });
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
        summary: c.summary,
        reason: c.reason ?? null,
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
export async function listTags(memory: Memory): Promise<TagEntity[]> {
  const ws = await memory.workspace();
  const cat = tagCatalogue(ws)?.tags ?? new Map();
  const used = tagUsage(ws);
  const entity = (u: TagUsage): TagEntity => {
    const info = cat.get(u.tag);
    return {
      name: u.tag,
      description: info?.description ?? null,
      category: info?.category ?? null,
      usageCount: u.count,
      catalogued: info !== undefined,
      ...u,
    };
  };
  const seen = new Set(used.map((u) => u.tag));
  const unused = [...cat.keys()]
    .filter((t) => !seen.has(t))
    .sort()
    .map((tag) => entity({ tag, count: 0, entries: 0, playbook: 0 }));
  return [...used.map(entity), ...unused];
}

/** What memory knows about a code path (file, folder or glob). @throws MemoryError `usage` for an empty path. */
export async function fileKnowledge(memory: Memory, path: string): Promise<FileKnowledge> {
  if (!path || !path.trim())
    throw new MemoryError('usage', 'a code path is required, e.g. gitmem files src/db/pool.ts');
  return fileKnowledgeOf(await memory.workspace(), path);
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
  }>;
  readonly files: ReadonlyArray<{ path: string; score: number; from: string[] }>;
  readonly mode: RecallMode;
  readonly degraded: string | null;
  readonly tookMs: number;
}

/**
 * Top-k memories (entries, long-term, daily notes, notes) and playbook entries for a task
 * description by hybrid recall, plus files recommended from the recalled memories' links.
 * @throws MemoryError `usage` for an empty task.
 */
export async function taskContext(
  memory: Memory,
  task: string,
  options: { limit?: number; budget?: number } = {},
): Promise<TaskContext> {
  const t0 = performance.now();
  if (!task || !task.trim())
    throw new MemoryError('usage', 'describe the task, e.g. gitmem context "speed up the export job"');
  const k = options.limit ?? 5;
  const mems = await memory.recall(task, {
    kinds: ['entry', 'long_term', 'daily', 'note'],
    limit: k,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
  });
  const pb = await memory.recall(task, { kinds: ['playbook'], limit: k * 2 });
  const ws = await memory.workspace();
  const playbook: TaskContext['playbook'][number][] = [];
  const seen = new Set<string>();
  for (const r of pb.results) {
    const d = ws.tryGet(r.path as never);
    const id = d?.meta.id ?? r.path;
    if (seen.has(id)) continue;
    seen.add(id);
    const s = d ? playbookSummaries([d])[0] : undefined;
    playbook.push({
      id,
      path: r.path,
      title: s?.title ?? id,
      category: s?.category ?? '',
      priority: s?.priority ?? 0,
      snippet: r.snippet,
      score: r.score,
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

// ---------------------------------------------------------------------------------------------
// Dreams

export interface DreamResult {
  /** DREAMS.md path. */
  readonly path: string;
  /** New proposals written by this pass. */
  readonly proposals: readonly DreamProposal[];
  /** Proposals already in DREAMS.md, by status. */
  readonly existing: { readonly proposed: number; readonly promoted: number; readonly rejected: number };
  readonly diff: string;
  readonly commit: string | null;
}

/**
 * A dream pass: plan promotions, merges and retirements (src/ace/dreams.ts) and append the new
 * ones to DREAMS.md (proposals already there, in any status, are not repeated).
 * @param options.exists tells whether a code path exists (enables "linked code gone" retirements).
 */
export async function dream(
  memory: Memory,
  where: GitLocation,
  options: AceWriteOptions & { exists?: (path: string) => boolean; staleDays?: number; maxPerKind?: number } = {},
): Promise<DreamResult> {
  const ws = await memory.workspace();
  const now = options.now ?? new Date();
  const path = singleFilePath(memory, ws, 'dreams');
  const doc = ws.tryGet(path as never);
  const existing = doc ? parseDreams(doc.text) : [];
  const proposals = planDreams(
    ws,
    {
      now,
      longTermPath: singleFilePath(memory, ws, 'long_term'),
      ...(options.exists ? { exists: options.exists } : {}),
      ...(options.staleDays !== undefined ? { staleDays: options.staleDays } : {}),
      ...(options.maxPerKind !== undefined ? { maxPerKind: options.maxPerKind } : {}),
    },
    existing,
  );
  const counts = {
    proposed: existing.filter((p) => p.status === 'proposed').length,
    promoted: existing.filter((p) => p.status === 'promoted').length,
    rejected: existing.filter((p) => p.status === 'rejected').length,
  };
  if (!proposals.length) return { path, proposals, existing: counts, diff: '', commit: null };
  const next = withProposals(doc?.text, proposals, doc?.eol ?? '\n');
  await memory.writeMemoryFile(path, diskText(doc, next));
  const git = committer(memory, where, options);
  const commit = await git.commit(
    [path],
    `memory: dream — ${proposals.length} proposal${proposals.length === 1 ? '' : 's'}`,
    summariseKinds(proposals),
    { 'Memory-Origin': 'dream' },
  );
  return { path, proposals, existing: counts, diff: unifiedDiff(path, doc?.text, next), commit };
}

function summariseKinds(ps: readonly DreamProposal[]): string {
  const n = (k: DreamKind) => ps.filter((p) => p.kind === k).length;
  return [`${n('promotion')} promotions`, `${n('merge')} merges`, `${n('retirement')} retirements`].join(', ');
}

export interface ProposalDecision {
  readonly id: string;
  readonly kind: DreamKind;
  readonly status: 'promoted' | 'rejected';
  readonly action: DreamAction | null;
  /** Files written (the action's target, then DREAMS.md). */
  readonly files: readonly string[];
  /** Unified diff of every file written: what a reviewer reads. */
  readonly diff: string;
  readonly commit: string | null;
}

async function findProposal(memory: Memory, id: string) {
  if (!id || !id.trim()) throw new MemoryError('usage', 'a proposal id is required (see DREAMS.md, e.g. d-1a2b3c4d)');
  const ws = await memory.workspace();
  const path = singleFilePath(memory, ws, 'dreams');
  const doc = ws.tryGet(path as never);
  const proposals = doc ? parseDreams(doc.text) : [];
  const p = proposals.find((x) => x.id === id.trim());
  if (!doc || !p) {
    throw new MemoryError('entry.not-found', `no dream proposal "${id}" in ${path}`, {
      hint: proposals.length
        ? `known proposals: ${proposals
            .slice(0, 5)
            .map((x) => x.id)
            .join(', ')}`
        : 'run gitmem dream first',
    });
  }
  // Not a usage error: the command was right, the proposal was decided before (exit 1).
  if (p.status !== 'proposed') {
    throw new MemoryError('entry.invalid', `proposal ${p.id} is already ${p.status}; nothing to do`, {
      data: { id: p.id, status: p.status },
    });
  }
  return { ws, path, doc, p };
}

/**
 * Promote a dream proposal: apply its action (a bullet added to long-term memory, an entry marked
 * duplicate, superseded or archived, a playbook entry deactivated), mark it `promoted` in DREAMS.md,
 * and record both as one commit (when in git). Returns the diff of the change; nothing is promoted
 * without one.
 * @throws MemoryError `entry.not-found` (unknown id), `usage` (already decided), `entry.invalid`
 *   (no action, evidence no longer matches the files, or the action does not apply any more).
 */
export async function promoteProposal(
  memory: Memory,
  where: GitLocation,
  id: string,
  options: AceWriteOptions = {},
): Promise<ProposalDecision> {
  const { ws, path, doc, p } = await findProposal(memory, id);
  if (!p.action)
    throw new MemoryError('entry.invalid', `proposal ${p.id} has no action line; edit it or reject it`, {
      hint: 'a promotable proposal has "- action: …" (see gitmem dream output)',
    });
  const stale = staleEvidence(p, ws);
  if (stale.length) {
    throw new MemoryError(
      'entry.invalid',
      `proposal ${p.id} cites evidence that no longer exists: ${stale.map((e) => `${e.path}:${e.line}`).join(', ')}`,
      {
        data: { stale },
        hint: 'reject it and run gitmem dream again',
      },
    );
  }
  const target = ws.tryGet(p.action.path as never);
  const applied = applyAction(p.action, target);
  if ('problem' in applied)
    throw new MemoryError('entry.invalid', `cannot promote ${p.id}: ${applied.problem}`, {
      hint: `gitmem reject ${p.id}`,
    });
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const dreamsNext = withProposalStatus(doc.text, p.id, 'promoted', day)!;
  const diff = unifiedDiff(p.action.path, target?.text, applied.text) + unifiedDiff(path, doc.text, dreamsNext);
  if (!diff.trim()) throw new MemoryError('entry.invalid', `promoting ${p.id} would change nothing`);
  const git = committer(memory, where, options);
  // What is printed is what is committed: refuse when either file holds edits nobody reviewed.
  if (git.enabled) await assertNoUncommittedEdits(memory, where, [p.action.path, path], `promoting ${p.id}`);
  await memory.writeMemoryFile(p.action.path, diskText(target, applied.text));
  await memory.writeMemoryFile(path, diskText(doc, dreamsNext));
  const commit = await git.commit([p.action.path, path], `memory: promote dream ${p.id}`, `${p.kind}: ${p.title}`, {
    'Memory-Origin': 'dream',
  });
  return { id: p.id, kind: p.kind, status: 'promoted', action: p.action, files: [p.action.path, path], diff, commit };
}

/**
 * Reject a dream proposal: mark it `rejected` in DREAMS.md (kept, so later passes do not propose
 * it again) and commit that (when in git).
 * @throws MemoryError `entry.not-found`, `usage` (already decided).
 */
export async function rejectProposal(
  memory: Memory,
  where: GitLocation,
  id: string,
  options: AceWriteOptions & { reason?: string } = {},
): Promise<ProposalDecision> {
  const { path, doc, p } = await findProposal(memory, id);
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const next = withProposalStatus(
    doc.text,
    p.id,
    'rejected',
    options.reason ? `${day}: ${oneLine(options.reason)}` : day,
  )!;
  const git = committer(memory, where, options);
  if (git.enabled) await assertNoUncommittedEdits(memory, where, [path], `rejecting ${p.id}`);
  await memory.writeMemoryFile(path, diskText(doc, next));
  const commit = await git.commit([path], `memory: reject dream ${p.id}`, options.reason ?? `${p.kind}: ${p.title}`, {
    'Memory-Origin': 'dream',
  });
  return {
    id: p.id,
    kind: p.kind,
    status: 'rejected',
    action: p.action ?? null,
    files: [path],
    diff: unifiedDiff(path, doc.text, next),
    commit,
  };
}
