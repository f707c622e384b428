// ACE curator (docs/DESIGN.md §6): playbook deltas (add / update / delete) from a task's insights, related
// playbook entries and feedback, validated (no duplicates, minimum length and quality) before the
// service applies them. Pure and deterministic; imports only core.
import { bodyOf, type EntryType, type MemoryDoc } from '../core/document.js';
import type { RelatedPlaybook } from './reflector.js';
import { containment, contentTokens, jaccard, normalise, slug, titleOf } from './text.js';
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
}

export interface CuratePlan {
  readonly deltas: PlaybookDelta[];
  readonly rejected: RejectedDelta[];
}

/** Similarity at which new guidance counts as already in the playbook. */
const COVERED = 0.5;
/** Similarity at which a new entry is a duplicate of an existing one (validation). */
const DUPLICATE = 0.6;

/**
 * Propose playbook deltas for a task, then validate them:
 * - **delete** (soft: `active: false`) an entry when the feedback calls it obsolete/wrong and names
 *   its id (or it is a related entry sharing at least three words with the feedback);
 * - **update** a related entry by appending an insight that shares at least two words with it, is
 *   not covered by it, and adds at least three new words;
 * - **add** an entry for an insight no active entry covers (Jaccard < 0.5), at most `maxAdds`.
 * Validation rejects duplicates (of existing entries, of each other: Jaccard ≥ 0.6 or equal normal
 * form), text below the minimum quality, unknown or inactive targets, and repeats of a line already there.
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
      const close =
        relatedIds.has(p.id) && jaccard(fb, `${p.title} ${p.body}`) > 0 && sharedCount(fb, `${p.title} ${p.body}`) >= 3;
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
    let best: { p: PlaybookSummary; sim: number } | undefined;
    for (const p of active) {
      if (deleted.has(p.id)) continue;
      // Covered when most of the insight's words are already in the entry (containment), or the
      // two are simply alike (Jaccard).
      const sim = Math.max(
        jaccard(text, p.body),
        jaccard(text, `${p.title} ${p.body}`),
        containment(text, `${p.title} ${p.body}`) - 0.1,
      );
      if (!best || sim > best.sim) best = { p, sim };
    }
    if (best && best.sim >= COVERED) continue; // already guidance; the supporting link records the evidence
    // Not covered, but about a related entry (at least two shared words): refine that entry.
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
    const title = titleOf(text.replace(/ → .*$/, '')).replace(/[.!?]$/, '');
    let id = slug(title).split('-').slice(0, 8).join('-');
    for (let n = 2; usedIds.has(id); n++) id = `${slug(title).split('-').slice(0, 8).join('-')}-${n}`;
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
  return validateDeltas(proposals, input.playbook);
}

/** Validate proposed deltas against the playbook and each other. */
export function validateDeltas(proposals: readonly PlaybookDelta[], playbook: readonly PlaybookSummary[]): CuratePlan {
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
      const norm = normalise(d.text);
      const dup = playbook.find(
        (p) =>
          p.active &&
          (normalise(p.body) === norm ||
            jaccard(d.text, p.body) >= DUPLICATE ||
            containment(d.text, `${p.title} ${p.body}`) >= 0.75),
      );
      if (dup) {
        reject(`duplicate of playbook entry ${dup.id}`);
        continue;
      }
      if (accepted.some((t) => normalise(t) === norm || jaccard(t, d.text) >= DUPLICATE)) {
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
        if (normalise(p.body).includes(normalise(line)) || accepted.some((t) => jaccard(t, line) >= DUPLICATE)) {
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
