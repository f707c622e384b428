// `complete-task` applied to a Memory: the executor's entry (deduped, conflict-checked, written and
// checkpointed), the reflector's insights, related playbook entries and the curator's deltas, each
// change a checkpoint commit with Memory-* trailers when in git. deps: core, ace, git, parse, service.
import { createEntry } from '../shared/entry-writer.js';
import { findPossibleConflicts, type PossibleConflict } from '../shared/conflict.js';
import { bodyOf, ENTRY_TYPES, type EntryType, type MemoryDoc } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { checkWriteSize } from '../../core/write-limits.js';
import { writtenText } from '../../core/text.js';
import { curate, guidanceTitle, playbookSummaries } from '../../ace/curator.js';
import { classifyTask } from '../../ace/classify.js';
import { extractFiles } from '../../ace/tool-files.js';
import { planEntry } from '../../ace/executor.js';
import { withFrontMatterKey, withListItem } from '../../parse/front-matter-edit.js';
import { extractInsights, selectRelated, type PlaybookHit, type RelatedPlaybook } from '../../ace/reflector.js';
import type {
  Classification,
  Insight,
  LinkedFile,
  PlaybookDelta,
  RejectedDelta,
  TaskInput,
  ToolUse,
} from '../../ace/types.js';
import { renderWithFrontMatter } from '../../parse/serialize.js';
import { memoryChanges, type GitLocation } from '../git-ops/checkpoint.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { checkMemoryWrite, writeMemoryFile } from '../shared/memory-files.js';
import { recall } from '../recall/recall.js';
import type { RecallMode } from '../recall/types.js';
import { findDuplicate, findDuplicateByMeaning, guidanceProbes, guidanceRepeats } from '../shared/dedupe-policy.js';
import { type AceWriteOptions, oneLine, kindDir, diskText, committer } from './ace.js';
import { parseMemoryText } from '../git-ops/memory-text.js';

/** A playbook delta as applied: the file it wrote and the commit that records it. */
export type AppliedDelta = PlaybookDelta & { readonly path: string; readonly commit: string | null };

/** A related playbook entry and whether the new memory id was added to its `supporting`. */
export interface RelatedPlaybookResult extends RelatedPlaybook {
  readonly title: string;
  readonly supportingAdded: boolean;
  /** Why the link was not written: the file holds uncommitted edits a commit would sweep in. */
  readonly heldBack?: string;
}

/**
 * Result of {@link completeTask}. Stable shape (the MCP tool `memory_complete_task` returns it):
 * ```
 * { status: 'created' | 'duplicate', memoryId, path, duplicateOf?, type, classification: {scores, rules},
 *   filesLinked: [{path, relation, lines?}], tags: string[], insights: [{kind, text, error?, from}],
 *   relatedPlaybook: [{id, path, title, score, shared, vector, supportingAdded, heldBack?}],
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

/** `completeTask`'s input: the task, the repository around the workspace, and the write options. */
export interface CompleteTaskInput extends AceWriteOptions {
  /** A {@link TaskInput} or any value (checked by {@link parseTaskInput}). */
  readonly task: TaskInput | unknown;
  /** The repository around the workspace (`{gitdir, workTree}`; both undefined outside git). */
  readonly git: GitLocation;
}

/**
 * Check and normalise a task object (from JSON, stdin or an MCP call).
 * @throws MemoryError `usage` naming the bad field.
 */
function parseTaskInput(value: unknown): TaskInput {
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
    checkWriteSize(k, x); // the one cap of every write path (U62)
    return x;
  };
  // The texts written into the entry and playbook: control characters as visible symbols (U27).
  const prose = (k: string, required = false): string | undefined => {
    const x = str(k, required);
    if (x === undefined) return undefined;
    const t = writtenText(x);
    if (required && !t.trim()) throw new MemoryError('usage', `task.${k} is empty`);
    return t;
  };
  const goal = prose('goal', true)!;
  const result = prose('result', true)!;
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
  const feedback = prose('feedback');
  const agent = str('agent');
  const session = str('session');
  const task = prose('task');
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

/** Entry text compared for dedupe: goal/result/feedback from front-matter when present, else the body. */
function dedupeTextOf(d: MemoryDoc): string {
  const data = d.frontMatter?.data ?? {};
  if (typeof data.goal === 'string' && typeof data.result === 'string') {
    return [data.goal, data.result, typeof data.feedback === 'string' ? data.feedback : '']
      .map((s) => oneLine(String(s)))
      .join(' \n ');
  }
  return bodyOf(d);
}

/**
 * Complete a task (docs/DESIGN.md §6), deterministically and offline:
 * 1. **Executor** — files and relations from `tool_usage`, type from rules (or `input.type`), tags,
 *    dedupe against entries of the same type (normalised text hash or token Jaccard ≥ config
 *    `dedupe.jaccard`; with a model, embedding cosine ≥ `dedupe.cosine`), entry written to `<entries>/<YYYY-MM-DD-slug>.md` and committed;
 * 2. **Reflector** — related playbook entries by hybrid recall (keyword-only when the model is
 *    unavailable), the new id added to their `supporting` (one commit), insights extracted;
 * 3. **Curator** — playbook deltas validated and applied, one commit each; whether guidance is already in
 *    the playbook is the dedupe policy's answer (guidanceRepeats), by meaning with a model.
 * Outside git (or with `commit: false`) the files are written and `commit` is null.
 *
 * Recall runs before anything is written, so the index is not rebuilt mid-call.
 * @param input the task, the repository (`git`) and the write options ({@link CompleteTaskInput}).
 * @throws MemoryError `usage` for a malformed task; `git.*` errors from committing (files stay written).
 */
export async function completeTask(ctx: MemoryContext, input: CompleteTaskInput): Promise<CompleteTaskResult> {
  const { git: where, task: taskValue, ...options } = input;
  const memory = ctx;
  const t0 = performance.now();
  const task = parseTaskInput(taskValue);
  const now = options.now ?? new Date();
  const ws = await memory.workspace();

  // Executor: files, type, insights, tags, entry.
  const files = extractFiles(task.tool_usage, {
    root: memory.root,
    ...(task.cwd !== undefined ? { cwd: task.cwd } : {}),
  });
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

  // Dedupe within the type by the one policy remember uses (service/shared/dedupe-policy.ts).
  // Then, with a model, the rule by meaning remember applies (service/shared/dedupe-policy.ts rule 3), on
  // the text the entry would be embedded from (its title, then the result and feedback).
  const byText = findDuplicate(ws.docs(), { text: plan.dedupeText, type }, memory.config.dedupe.jaccard, dedupeTextOf);
  const dup = byText
    ? { id: byText.doc.meta.id ?? byText.doc.path, path: byText.doc.path }
    : await findDuplicateByMeaning(ctx, ws, {
        text: [task.result, task.feedback ?? ''].map(oneLine).join('\n\n').trim(),
        type,
        title: plan.title,
      });
  if (dup) {
    return {
      status: 'duplicate',
      memoryId: dup.id,
      path: dup.path,
      duplicateOf: dup.id,
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

  // Reflector, part 1: related playbook entries by hybrid recall (before any write).
  const query = oneLine(`${plan.title}. ${task.goal} ${task.result}`).slice(0, 500);
  const rec = await recall(ctx, query, { kinds: ['playbook'], limit: 10 });
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

  const dir = kindDir(memory, 'entry');
  const pbDir = kindDir(memory, 'playbook');
  const day = now.toISOString().slice(0, 10);
  const playbook = playbookSummaries(ws.docs());
  // Whether guidance repeats a playbook entry (or another insight) is the one dedupe policy's answer,
  // by meaning too: the insights' vectors are read or embedded here, before the pure curator runs.
  const probes = await guidanceProbes(
    ctx,
    insights.map((i) => ({ text: i.text, title: guidanceTitle(i.text) })),
  );
  const semantic = ctx.semantic;
  const repeats = guidanceRepeats(ws.docs(), memory.config.dedupe, semantic && { vectors: semantic, probes });
  const curateFor = (memoryId: string) =>
    curate({
      memoryId,
      type,
      tags: plan.tags,
      insights,
      related,
      playbook,
      repeats,
      ...(task.feedback ? { feedback: task.feedback } : {}),
    });
  type Add = Extract<PlaybookDelta, { op: 'add' }>;
  const addedData = (add: Add) => ({
    category: add.category,
    title: add.title,
    priority: add.priority,
    tags: [...add.tags],
    supporting: [...add.supporting],
    active: true,
    created: day,
    created_by: task.agent ?? 'gitmem',
  });
  const addedBody = (add: Add, memoryId: string) => `\n${add.text}\n\nLearned from [[${memoryId}]].\n`;
  const addedText = (add: Add, pid: string, memoryId: string) =>
    renderWithFrontMatter({ id: pid, ...addedData(add) }, addedBody(add, memoryId));

  const git = committer(memory, where, options);
  // A file that already holds edits nobody committed is never changed by a call that commits what it
  // writes: the commit would carry those edits unreviewed. Its link or delta is held back and said so.
  const dirty = new Set<string>();
  if (git.enabled) {
    const c = await memoryChanges(memory, where);
    for (const p of [...c.added, ...c.modified, ...c.deleted]) dirty.add(p);
  }
  const HELD_BACK = 'the file holds uncommitted edits; commit or discard them first';

  // Every guard of every write this call plans (memory path, `ignore`, confinement, secret scan) runs
  // before the first byte is written: a refused playbook write must not leave the entry written and
  // committed behind a failed call (docs/bad-inputs.md U19). The plan uses the entry's base id; a
  // suffix taken below changes ids only.
  await checkMemoryWrite(
    ctx,
    `${dir}/${plan.baseId}.md`,
    renderWithFrontMatter({ id: plan.baseId, ...plan.data }, plan.body),
    { create: true },
  );
  for (const r of related) await checkMemoryWrite(ctx, r.path, ws.tryGet(r.path as never)!.text);
  for (const delta of curateFor(plan.baseId).deltas) {
    if (delta.op === 'add')
      await checkMemoryWrite(ctx, `${pbDir}/${delta.id}.md`, addedText(delta, delta.id, plan.baseId), { create: true });
    else {
      const before = ws.tryGet(delta.path as never)!.text;
      await checkMemoryWrite(ctx, delta.path, delta.op === 'update' ? `${before}\n${delta.append}\n` : before);
    }
  }

  // Executor: write the entry through the one entry writer (service/shared/entry-writer.ts): the
  // size caps ran on the task's texts (parseTaskInput) and the secret scan on every planned write
  // above; layout check, free id, render, exclusive create here. A file already at the id's path
  // (ignored, too large, named unlike its id) is never overwritten; the next suffix is taken (U14).
  const { id, path: entryPath } = await createEntry(ctx, {
    dir,
    base: plan.baseId,
    taken: (x) => ws.byId(x).length > 0 || ws.tryGet(`${dir}/${x}.md` as never) !== undefined,
    data: plan.data,
    body: plan.body,
  });
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
    if (dirty.has(d.path)) {
      relatedOut.push({
        ...r,
        title: d.meta.title ?? d.headings[0]?.text ?? r.id,
        supportingAdded: false,
        heldBack: HELD_BACK,
      });
      continue;
    }
    const next = withListItem(d, 'supporting', id);
    const added = next !== undefined && next !== d.text;
    if (added) {
      await writeMemoryFile(ctx, d.path, diskText(d, next));
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
  const curated = curateFor(id);
  const rejected: RejectedDelta[] = [...curated.rejected];
  const applied: AppliedDelta[] = [];
  for (let delta of curated.deltas) {
    if (delta.op !== 'add' && dirty.has(delta.path)) {
      rejected.push({ delta, reason: HELD_BACK });
      continue;
    }
    let path: string;
    if (delta.op === 'add') {
      const add = delta;
      // The curator knows playbook ids, not file names: a file at `<id>.md` holding another id (or
      // none the workspace parsed) is never replaced; the next suffix is taken.
      const created = await createEntry(ctx, {
        dir: pbDir,
        base: delta.id,
        taken: (x) => ws.byId(x).length > 0 || ws.tryGet(`${pbDir}/${x}.md` as never) !== undefined,
        data: addedData(add),
        body: addedBody(add, id),
      });
      const pid = created.id;
      path = created.path;
      if (pid !== delta.id) delta = { ...delta, id: pid };
    } else {
      path = delta.path;
      const before = ws.tryGet(path as never)!;
      const text = current.get(path) ?? before.text;
      let doc = parseMemoryText(memory, path, text)!;
      let next =
        delta.op === 'update'
          ? `${text.replace(/\s*$/, '')}${doc.eol}${delta.append}${doc.eol}`
          : withFrontMatterKey(doc, 'active', false)!;
      doc = parseMemoryText(memory, path, next)!;
      next = withFrontMatterKey(doc, 'updated', day) ?? next;
      await writeMemoryFile(ctx, path, diskText(before, next));
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
