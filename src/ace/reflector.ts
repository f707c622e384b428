// ACE reflector (docs/DESIGN.md §6): insights from a completed task (error → root cause, gotcha, pattern)
// and the choice of related playbook entries among recall hits. Pure and deterministic; the
// service runs the recall and applies the result. Imports only core.
import type { EntryType } from '../core/document.js';
import { contentTokens, sentences, sharedTokens } from './text.js';
import type { Insight, TaskInput } from './types.js';

const CAUSE =
  /\b(root cause|because|caused by|due to|the (problem|issue|bug|culprit|reason) (was|is)|turned out|turns out|happens when|was triggered by|came from|stems from)\b/i;
const ERROR =
  /\b(error|exception|fail(s|ed|ing|ure)?|crash(es|ed)?|bug|broken|hang(s)?|timeout|timed out|500|TypeError|ReferenceError|panic|regression|flaky|wrong)\b/i;
/** Imperative warnings at the start of a sentence or clause ("Never …", "…; don't …"). */
const IMPERATIVE = /(^|[.;:!]\s+|\b(so|and|but|then|always|please)\s+)(never|don'?t|do not|avoid|stop)\b/i;
/** A sentence that describes the fix rather than the cause. */
const FIX_VERB =
  /^(so |then |finally |i |we )?(switched|changed|added|fixed|replaced|updated|wrapped|set|pinned|raised|lowered|removed|moved|renamed|reverted|bumped|upgraded|downgraded|made|used|registered|increased|decreased|cleared|guarded|disabled|enabled)\b/i;
const GOTCHA =
  /\b(beware|careful|caution|watch out|gotcha|must not|mustn'?t|silently|surprising(ly)?|unexpected(ly)?|not obvious|counter-?intuitive|trap|footgun|dangerous|instead of (a |an |the )?\d{3}|without (a |an )?(time ?zone|backup|lock))\b/i;
const PATTERN =
  /\b(always|prefer|use \S+ (instead|rather)|instead of|rather than|the trick (is|was)|it helps to|works better|better to|next time|going forward|from now on|make sure|remember to|should|pattern|approach|worth doing|keep \S+ (under|below|in))\b/i;

const clean = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/^(lesson|takeaway|note|tip|root cause|gotcha|pattern)\s*:\s*/i, '')
    .trim();
const sentence = (s: string) => {
  const t = clean(s);
  return t ? `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}` : t;
};

/** Text of the first error-like line in tool results (`Error: …`, `TypeError: …`, `FAIL …`). */
function toolError(input: TaskInput): string | undefined {
  for (const t of input.tool_usage ?? []) {
    const r = typeof t.result === 'string' ? t.result : '';
    const m = /^(?:\s*)((?:[A-Z][A-Za-z]*)?Error:[^\n]{3,160}|FAIL[^\n]{3,160}|E[A-Z]{3,}:[^\n]{3,160})/m.exec(r);
    if (m) return m[1]!.trim();
  }
  return undefined;
}

/**
 * Insights of a task, in a stable order, at most `max` (default 5):
 * - `root_cause` when the task is about an error and a sentence gives its cause (`because`, `root cause`,
 *   `turned out`, …): the error (the goal, or a tool error) → the cause;
 * - `gotcha` for sentences that warn (`never`, `avoid`, `silently`, `careful`, …);
 * - `pattern` for sentences that recommend a way of working (`always`, `instead of`, `next time`, …).
 * Feedback sentences are considered first: they carry the reviewer's judgement.
 */
export function extractInsights(input: TaskInput, type: EntryType, options: { max?: number } = {}): Insight[] {
  const out: Insight[] = [];
  const seen = new Set<string>();
  const push = (i: Insight) => {
    const key = contentTokens(i.text).join(' ');
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(i);
  };
  const fields: ReadonlyArray<['feedback' | 'result' | 'goal', string]> = [
    ['feedback', input.feedback ?? ''],
    ['result', input.result ?? ''],
    ['goal', input.goal ?? ''],
  ];
  const errorText = ERROR.test(input.goal)
    ? input.goal
    : (toolError(input) ?? (type === 'error_fix' ? input.goal : undefined));

  for (const [from, text] of fields) {
    for (const s of sentences(text)) {
      if (contentTokens(s).length < 3) continue;
      if (
        from !== 'goal' &&
        errorText &&
        CAUSE.test(s) &&
        (type === 'error_fix' || type === 'discovery' || ERROR.test(s) || ERROR.test(errorText))
      ) {
        const cause = sentence(
          s.replace(/^.*?\b(root cause( was| is)?:?|because|caused by|due to)\s*/i, (m) =>
            /root cause/i.test(m) ? '' : m,
          ),
        );
        push({
          kind: 'root_cause',
          text: `${sentence(errorText).replace(/\.$/, '')} → ${cause}`,
          error: clean(errorText),
          from,
        });
        continue;
      }
      if ((GOTCHA.test(s) || IMPERATIVE.test(s)) && from !== 'goal') {
        push({ kind: 'gotcha', text: sentence(s), from });
        continue;
      }
      if (PATTERN.test(s) && from !== 'goal') push({ kind: 'pattern', text: sentence(s), from });
    }
  }
  // An error fix with no "because": the first result sentence that is not the fix itself is the cause.
  if (type === 'error_fix' && errorText && !out.some((i) => i.kind === 'root_cause')) {
    const cause = sentences(input.result ?? '').find(
      (s) =>
        contentTokens(s).length >= 4 &&
        !FIX_VERB.test(s) &&
        !/\b(pass(es)?|works?|green|fixed)\b.*\b(now|again)\b/i.test(s),
    );
    if (cause) {
      const dup = out.findIndex((i) => contentTokens(i.text).join(' ') === contentTokens(sentence(cause)).join(' '));
      if (dup >= 0) out.splice(dup, 1);
      out.unshift({
        kind: 'root_cause',
        text: `${sentence(errorText).replace(/\.$/, '')} → ${sentence(cause)}`,
        error: clean(errorText),
        from: 'result',
      });
    }
  }
  // Warnings and preferences are guidance by nature: their feedback (or result) is the insight.
  if (!out.some((i) => i.kind !== 'root_cause') && (type === 'warning' || type === 'preference')) {
    const src = input.feedback?.trim() ? input.feedback : input.result;
    const first = sentences(src ?? '').find((s) => contentTokens(s).length >= 4);
    if (first)
      push({
        kind: type === 'warning' ? 'gotcha' : 'pattern',
        text: sentence(first),
        from: input.feedback?.trim() ? 'feedback' : 'result',
      });
  }
  return out.slice(0, options.max ?? 5);
}

/** A recall hit on a playbook entry, as the service hands it over. */
export interface PlaybookHit {
  readonly id: string;
  readonly path: string;
  /** Fused score (rank-based in hybrid mode). */
  readonly score: number;
  /** Keyword (BM25) score; null when only the vector half found it. */
  readonly keyword: number | null;
  /** Cosine similarity; null in keyword mode or when only the keyword half found it. */
  readonly vector: number | null;
  /** Text of the entry (title + body) for the overlap check. */
  readonly text: string;
}

/** A playbook entry judged related to the task, with why. */
export interface RelatedPlaybook {
  readonly id: string;
  readonly path: string;
  readonly score: number;
  /** Content words the task and the entry share. */
  readonly shared: readonly string[];
  readonly vector: number | null;
}

/**
 * Pick the playbook entries related to a task among recall hits (best first, one per id, at most
 * `max`, default 3). Recall ranks are relative, so each hit must also stand on its own: a cosine of
 * at least `minVector` (0.5), or at least two shared content words with the task and, when a vector
 * score exists, a cosine of at least 0.3.
 */
export function selectRelated(
  taskText: string,
  hits: readonly PlaybookHit[],
  options: { max?: number; minVector?: number } = {},
): RelatedPlaybook[] {
  const taskTokens = contentTokens(taskText);
  const minVector = options.minVector ?? 0.5;
  const out: RelatedPlaybook[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (seen.has(h.id)) continue;
    const shared = sharedTokens(taskTokens, h.text);
    const strongVector = h.vector !== null && h.vector >= minVector;
    const overlap = shared.length >= 2 && (h.vector === null || h.vector >= 0.3);
    if (!strongVector && !overlap) continue;
    seen.add(h.id);
    out.push({ id: h.id, path: h.path, score: h.score, shared, vector: h.vector });
    if (out.length >= (options.max ?? 3)) break;
  }
  return out;
}
