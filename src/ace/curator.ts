// ACE curator (docs/DESIGN.md §6): playbook deltas (add / update / delete) from a task's insights, related
// playbook entries and feedback, validated (no duplicates, minimum length and quality) before the
// service applies them. Pure and deterministic; imports only core. Whether new guidance repeats a
// playbook entry, or another text of the same task, is the dedupe policy's answer
// (service/shared/dedupe-policy.ts guidanceRepeats), passed in as CurateInput.repeats: the curator
// keeps no similarity rule of its own for duplicates.
import { bodyOf, type EntryType, type MemoryDoc } from '../core/document.js';
import type { RelatedPlaybook } from './reflector.js';
import { firstFreeId, playbookIdBase } from '../core/entry-id.js';
import { normalise } from '../core/words.js';
import { contentTokens, titleOf } from './text.js';
import type { Insight, PlaybookCategory, PlaybookDelta, RejectedDelta } from './types.js';

/** A playbook entry as the curator sees it. */
export interface PlaybookSummary {
  readonly id: string;
  readonly path: string;
  readonly title: string;
  readonly category: string;
  readonly priority: number;
  readonly tags: readonly string[];
  readonly supporting: readonly string[];
  readonly active: boolean;
  readonly created?: string;
  readonly createdBy?: string;
  /** Body without front-matter, trimmed. */
  readonly body: string;
}

/** The playbook entries of a workspace's documents (kind `playbook`), in path order. */
export function playbookSummaries(docs: readonly MemoryDoc[]): PlaybookSummary[] {
  const out: PlaybookSummary[] = [];
  for (const d of docs) {
    if (d.kind !== 'playbook') continue;
    const data = d.frontMatter?.data ?? {};
    const body = bodyOf(d).trim();
    const sup = Array.isArray(data.supporting) ? data.supporting.map(String) : [];
    const firstHeading = d.headings[0]?.text;
    out.push({
      id: d.meta.id ?? d.path,
      path: d.path,
      title: d.meta.title ?? firstHeading ?? titleOf(body.replace(/^#+\s*/, '')),
      category: d.meta.category ?? 'uncategorised',
      priority: d.meta.priority ?? 0,
      tags: [...d.meta.tags],
      supporting: sup,
      active: d.meta.active !== false,
      ...(typeof data.created === 'string' ? { created: data.created } : {}),
      ...(typeof data.created_by === 'string' ? { createdBy: data.created_by } : {}),
      body,
    });
  }
  return out;
}

const OBSOLETE =
  /\b(obsolete|outdated|out of date|no longer (true|applies|apply|needed|relevant|valid|the case|necessary)|is wrong|was wrong|is incorrect|not true any ?more|doesn'?t apply any ?more|remove (this|that|the) (rule|guidance|entry|playbook entry)|retire[ds]?|superseded|drop (this|that|the) (rule|guidance))\b/i;

/** Category for guidance text: topic words first, then the insight kind. */
function categoryFor(text: string, kind: Insight['kind']): PlaybookCategory {
  const t = text;
  if (/\b(tests?|testing|spec|fixtures?|mocks?|fake timers|vitest|jest|pytest|e2e|flaky)\b/i.test(t)) return 'testing';
  if (/\b(dependenc(y|ies)|upgrade|bump|version \d|npm|pnpm|yarn|package|library|sdk|pin(ned)?)\b/i.test(t))
    return 'dependencies';
  if (/\b(architecture|layers?|module boundar|boundar(y|ies)|coupling|adapter|service layer|domain)\b/i.test(t))
    return 'architecture';
  if (
    /\b(pull requests?|PRs?|commits?|review|deploy(s|ment)?|release|branch(es)?|CI|on-?call|rollback|migration per)\b/.test(
      t,
    )
  )
    return 'workflow';
  return kind === 'pattern' ? 'patterns' : 'gotchas';
}

/** Minimum quality of new guidance text: long enough, enough words, not mostly code or paths. */
export function qualityProblem(text: string): string | undefined {
  const t = text.trim();
  if (t.length < 40) return `too short (${t.length} characters, at least 40)`;
  if (t.length > 600) return `too long (${t.length} characters, at most 600)`;
  const toks = contentTokens(t.replace(/`[^`]*`/g, ' '));
  if (toks.length < 5) return `too few words (${toks.length} content words, at least 5)`;
  const codeChars = (t.match(/[{}();=<>[\]$]/g) ?? []).length;
  if (codeChars / t.length > 0.08) return 'mostly code';
  return undefined;
}

/**
 * The one dedupe policy's answer for guidance texts (service/shared/dedupe-policy.ts guidanceRepeats),
 * filled by the caller; the curator asks it for every insight text it would add or append.
 */
export interface GuidanceRepeats {
  /** The active playbook entry `text` repeats (none whose id is in `skip`), or undefined. */
  of(text: string, skip?: ReadonlySet<string>): { readonly id: string } | undefined;
  /** Does `text` repeat `earlier`, another guidance text of the same task? */
  between(earlier: string, text: string): boolean;
}

/** The title of the playbook entry the curator adds for a guidance text. */
export function guidanceTitle(text: string): string {
  return titleOf(text.replace(/ → .*$/, '')).replace(/[.!?]$/, '');
}

export interface CurateInput {
  /** The memory the deltas come from (linked from new and updated entries). */
  readonly memoryId: string;
  readonly type: EntryType;
  readonly tags: readonly string[];
  readonly insights: readonly Insight[];
  readonly related: readonly RelatedPlaybook[];
  readonly playbook: readonly PlaybookSummary[];
  readonly feedback?: string;
  /** Most new entries per task (default 2). */
  readonly maxAdds?: number;
  /** Does a guidance text repeat a playbook entry or another text of the task? The dedupe policy. */
  readonly repeats: GuidanceRepeats;
}

export interface CuratePlan {
  readonly deltas: PlaybookDelta[];
  readonly rejected: RejectedDelta[];
}

/**
 * Propose playbook deltas for a task, then validate them:
 * - **delete** (soft: `active: false`) an entry when the feedback calls it obsolete/wrong and names
 *   its id (or it is a related entry sharing at least three words with the feedback);
 * - **update** a related entry by appending an insight that shares at least two words with it, does
 *   not repeat an entry, and adds at least three new words;
 * - **add** an entry for an insight that repeats no active entry (`input.repeats`), at most `maxAdds`.
 * An insight that repeats an active entry (not one this task deletes) is already guidance: no delta.
 * Validation rejects duplicates (of existing entries, of each other: the dedupe policy), text below
 * the minimum quality, unknown or inactive targets, and repeats of a line already there.
 */
export function curate(input: CurateInput): CuratePlan {
  const proposals: PlaybookDelta[] = [];
  const active = input.playbook.filter((p) => p.active);
  const relatedIds = new Set(input.related.map((r) => r.id));
  const link = `[[${input.memoryId}]]`;

  // Deletes first: feedback can retire guidance.
  const fb = input.feedback ?? '';
  if (fb && OBSOLETE.test(fb)) {
    for (const p of active) {
      const named = new RegExp(`(^|[^\\w-])${p.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(fb);
      const close = relatedIds.has(p.id) && sharedCount(fb, `${p.title} ${p.body}`) >= 3;
      if (named || close)
        proposals.push({
          op: 'delete',
          id: p.id,
          path: p.path,
          reason: `feedback on ${input.memoryId}: ${oneLine(fb)}`,
        });
    }
  }
  const deleted = new Set(proposals.filter((d) => d.op === 'delete').map((d) => d.id));

  let adds = 0;
  const usedIds = new Set(input.playbook.map((p) => p.id));
  for (const ins of input.insights) {
    const text = ins.text;
    // Already guidance (the dedupe policy); the supporting link records the evidence.
    if (input.repeats.of(text, deleted)) continue;
    // No repeat, but about a related entry (at least two shared words): refine that entry.
    let target: PlaybookSummary | undefined;
    let most = 1;
    for (const p of active) {
      if (!relatedIds.has(p.id) || deleted.has(p.id)) continue;
      const n = sharedCount(text, `${p.title} ${p.body}`);
      if (n > most) {
        most = n;
        target = p;
      }
    }
    if (target) {
      const fresh = contentTokens(text).filter((t) => !new Set(contentTokens(`${target.title} ${target.body}`)).has(t));
      if (new Set(fresh).size >= 3) {
        proposals.push({
          op: 'update',
          id: target.id,
          path: target.path,
          append: `- ${text} (${link})`,
          reason: `${kindLabel(ins)} from ${input.memoryId} refines ${target.id}`,
        });
        continue;
      }
    }
    if (adds >= (input.maxAdds ?? 2)) continue;
    const title = guidanceTitle(text);
    // The one id format of a playbook entry (core/entry-id.ts); the entry writer moves on again
    // when a file holds the id the workspace did not parse.
    const id = firstFreeId(playbookIdBase(title), (x) => usedIds.has(x));
    usedIds.add(id);
    const category = categoryFor(text, ins.kind);
    const priority = Math.min(
      9,
      (ins.kind === 'pattern' ? 5 : 6) + (input.type === 'warning' ? 1 : 0) + (ins.from === 'feedback' ? 1 : 0),
    );
    proposals.push({
      op: 'add',
      id,
      category,
      priority,
      title,
      text,
      tags: input.tags.slice(0, 5),
      supporting: [input.memoryId],
      reason: `${kindLabel(ins)} from ${input.memoryId}`,
    });
    adds++;
  }
  return validateDeltas(proposals, input.playbook, input.repeats);
}

/** Validate proposed deltas against the playbook and each other (duplicates: the dedupe policy, `repeats`). */
export function validateDeltas(
  proposals: readonly PlaybookDelta[],
  playbook: readonly PlaybookSummary[],
  repeats: GuidanceRepeats,
): CuratePlan {
  const deltas: PlaybookDelta[] = [];
  const rejected: RejectedDelta[] = [];
  const byId = new Map(playbook.map((p) => [p.id, p]));
  const accepted: string[] = [];
  const touched = new Set<string>();
  for (const d of proposals) {
    const reject = (reason: string) => rejected.push({ delta: d, reason });
    if (d.op === 'add') {
      const q = qualityProblem(d.text);
      if (q) {
        reject(q);
        continue;
      }
      if (byId.has(d.id)) {
        reject(`duplicate id ${d.id}`);
        continue;
      }
      const dup = repeats.of(d.text);
      if (dup) {
        reject(`duplicate of playbook entry ${dup.id}`);
        continue;
      }
      if (accepted.some((t) => repeats.between(t, d.text))) {
        reject('duplicate of another new entry');
        continue;
      }
      accepted.push(d.text);
      deltas.push(d);
    } else {
      const p = byId.get(d.id);
      if (!p) {
        reject(`no playbook entry ${d.id}`);
        continue;
      }
      if (!p.active) {
        reject(`playbook entry ${d.id} is inactive`);
        continue;
      }
      if (touched.has(d.id)) {
        reject(`playbook entry ${d.id} already changed by this task`);
        continue;
      }
      if (d.op === 'update') {
        const line = d.append.replace(/^- /, '').replace(/ \(\[\[.*\]\]\)$/, '');
        const q = qualityProblem(line);
        if (q) {
          reject(q);
          continue;
        }
        if (normalise(p.body).includes(normalise(line)) || accepted.some((t) => repeats.between(t, line))) {
          reject(`already in ${d.id}`);
          continue;
        }
        accepted.push(line);
      }
      touched.add(d.id);
      deltas.push(d);
    }
  }
  return { deltas, rejected };
}

function sharedCount(a: string, b: string): number {
  const B = new Set(contentTokens(b));
  return new Set(contentTokens(a).filter((t) => B.has(t))).size;
}

function kindLabel(i: Insight): string {
  return i.kind === 'root_cause' ? 'root cause' : i.kind;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 200);
