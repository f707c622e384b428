// The one rule for what may enter a block injected without the agent asking (`hook prompt`,
// `gitmem context`, MCP `memory_recall` with `budget`): config `recall.inject` says, per trust class,
// whether it may (docs/trust.md). Default: every class but `incoming` (arrived through sync and not
// yet approved here) and `injection` (lines flagged as addressing the assistant). What is held back
// is said in one line of the block, e.g. "2 unreviewed incoming memories withheld: gitmem review".
// Pure. deps: core (config), service/trust (types).
import { DEFAULT_CONFIG, type MemoryConfig } from '../../core/config.js';
import type { TrustClass, TrustLabel, ReviewState } from './types.js';

/** `recall.inject`: class → may it be injected. A class not named may. */
export type InjectPolicy = MemoryConfig['recall']['inject'];

/** What the policy decides for one item of the block. */
export interface InjectDecision {
  /** The class that withholds the whole item, or undefined when it may go in. */
  readonly withheldBy: TrustClass | undefined;
  /** File lines (1-based) withheld from an item that otherwise goes in. */
  readonly lines: ReadonlySet<number>;
}

const allowed = (policy: InjectPolicy, c: TrustClass) =>
  (policy as Partial<Record<TrustClass, boolean>>)[c] ??
  (DEFAULT_CONFIG.recall.inject as Partial<Record<TrustClass, boolean>>)[c] ??
  true;

/** Decide one item: its review state and its labels (a label with `lines` withholds those lines only). */
export function decideInjection(
  policy: InjectPolicy,
  review: ReviewState | undefined,
  labels: readonly TrustLabel[] = [],
): InjectDecision {
  const lines = new Set<number>();
  if (review && !allowed(policy, review)) return { withheldBy: review, lines };
  for (const l of labels) {
    if (allowed(policy, l.class)) continue;
    if (l.lines && l.lines.length > 0) for (const n of l.lines) lines.add(n);
    else return { withheldBy: l.class, lines };
  }
  return { withheldBy: undefined, lines };
}

const WHAT: Record<TrustClass, [string, string]> = {
  incoming: ['unreviewed incoming memory', 'unreviewed incoming memories'],
  unreviewed: ['unreviewed memory', 'unreviewed memories'],
  reviewed: ['reviewed memory', 'reviewed memories'],
  injection: ['line flagged as instructions', 'lines flagged as instructions'],
  stale: ['memory with stale cited code', 'memories with stale cited code'],
  conflict: ['conflicting memory', 'conflicting memories'],
  secret: ['memory holding a secret', 'memories holding secrets'],
};
const WHERE: Partial<Record<TrustClass, string>> = {
  incoming: 'gitmem review',
  unreviewed: 'gitmem review',
  injection: 'gitmem validate',
  stale: 'gitmem verify',
};

/**
 * The one line saying what was withheld (memories counted once per file, flagged lines per line), or
 * undefined when nothing was: "2 unreviewed incoming memories withheld: gitmem review".
 */
export function withheldNote(counts: ReadonlyMap<TrustClass, number>): string | undefined {
  const parts: string[] = [];
  const hints = new Set<string>();
  for (const [c, n] of counts) {
    if (n <= 0) continue;
    parts.push(`${n} ${WHAT[c][n === 1 ? 0 : 1]}`);
    const h = WHERE[c];
    if (h) hints.add(h);
  }
  if (parts.length === 0) return undefined;
  return `${parts.join(', ')} withheld${hints.size ? `: ${[...hints].join(', ')}` : ''}`;
}
