// Continuity snapshot (docs/DESIGN.md §5): a compact block an agent host injects at session start or after a
// reset — objective, step, decisions, next action, blockers, unsurfaced results — labelled with its
// freshness, within a token budget (target 150–300, hard cap configurable). Empty when not active.
// Pure; imports only core.
import type { ParsedState } from './parse-state.js';
import { isActive } from './render-state.js';
import { estimateTokens, type StateFields } from './sections.js';

export type Freshness = 'fresh' | 'stale';

/** What `gitmem state snapshot --json` prints. */
export interface StateSnapshot {
  readonly active: boolean;
  readonly freshness: Freshness;
  /** The `> Last updated:` value as written, or null when it is missing or not a valid timestamp. */
  readonly updated: string | null;
  /** The continuity block; '' when the state is not active. */
  readonly text: string;
}

export interface SnapshotOptions {
  readonly now: Date;
  /** Older than this many hours → `stale`. */
  readonly staleAfterHours: number;
  /** Hard cap of `text` in estimated tokens (see {@link estimateTokens}). */
  readonly maxTokens: number;
  /** Lines right under the header, inside the budget (the trust stage's framing line and withheld note). */
  readonly preface?: readonly string[];
}

/**
 * @returns `stale` when the state was last updated more than `staleAfterHours` ago, or when the
 * timestamp is missing or invalid (an unknown age is never presented as fresh); the age in hours.
 */
export function freshnessOf(
  parsed: ParsedState,
  now: Date,
  staleAfterHours: number,
): { freshness: Freshness; ageHours: number | undefined } {
  const date = parsed.updated?.date;
  if (!date) return { freshness: 'stale', ageHours: undefined };
  const ageHours = (now.getTime() - date.getTime()) / 3_600_000;
  return { freshness: ageHours > staleAfterHours ? 'stale' : 'fresh', ageHours };
}

const ITEM_CHARS = 240;
const SCALAR_CHARS = { objective: 600, step: 400, next: 400 } as const;

function clip(text: string, max: number): string {
  const one = text.replace(/\s*\n\s*/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

interface Limits {
  decisions: number;
  blockers: number;
  results: number;
  scale: number;
}

function renderBlock(f: StateFields, header: string, lim: Limits, preface: readonly string[] = []): string {
  const out = [header, ...preface];
  const scalar = (label: string, v: string, max: number) => {
    if (v) out.push(`${label}: ${clip(v, Math.max(24, Math.floor(max * lim.scale)))}`);
  };
  const list = (label: string, items: readonly string[], shown: number, recentFirst: boolean) => {
    if (items.length === 0) return;
    out.push(`${label}:`);
    const pick = recentFirst ? items.slice(Math.max(0, items.length - shown)) : items.slice(0, shown);
    for (const i of pick) out.push(`- ${clip(i, Math.max(24, Math.floor(ITEM_CHARS * lim.scale)))}`);
    if (shown < items.length) out.push(`- … ${items.length - shown} more in CURRENT_STATE.md`);
  };
  scalar('Objective', f.objective, SCALAR_CHARS.objective);
  scalar('Current step', f.step, SCALAR_CHARS.step);
  // Keep the most recent decisions when the budget is short: they are the ones not yet acted on.
  list('Key decisions', f.decisions, lim.decisions, true);
  scalar('Next action', f.next, SCALAR_CHARS.next);
  list('Blockers', f.blockers, lim.blockers, false);
  list('Unsurfaced results (not yet reported to the user)', f.results, lim.results, false);
  return out.join('\n');
}

/**
 * Build the snapshot of `parsed` at `options.now`. Lists are shortened (longest first) and then
 * values clipped until the text fits `maxTokens`; what was left out is named, never silently cut.
 */
export function snapshotState(parsed: ParsedState, options: SnapshotOptions): StateSnapshot {
  const f = parsed.fields;
  const { freshness, ageHours } = freshnessOf(parsed, options.now, options.staleAfterHours);
  const updated = parsed.updated?.date ? parsed.updated.raw : null;
  const active = isActive(f);
  if (!active) return { active, freshness, updated, text: '' };
  const header =
    freshness === 'fresh'
      ? `Working state (CURRENT_STATE.md, updated ${updated}):`
      : `Working state (CURRENT_STATE.md) — STALE: ${
          ageHours === undefined ? 'no valid "Last updated" time' : `updated ${updated}, ${Math.round(ageHours)} h ago`
        } (stale after ${options.staleAfterHours} h); verify before acting on it:`;
  const max = Math.max(1, Math.floor(options.maxTokens));
  const lim: Limits = {
    decisions: f.decisions.length,
    blockers: f.blockers.length,
    results: f.results.length,
    scale: 1,
  };
  let text = renderBlock(f, header, lim, options.preface);
  // Shrink the list showing the most items first; ties go decisions → results → blockers.
  while (estimateTokens(text) > max) {
    const order = (['decisions', 'results', 'blockers'] as const).filter((k) => lim[k] > 1);
    if (order.length) {
      const k = order.reduce((a, b) => (lim[b] > lim[a] ? b : a));
      lim[k]--;
    } else if (lim.scale > 0.1) lim.scale *= 0.8;
    else break;
    text = renderBlock(f, header, lim, options.preface);
  }
  while (estimateTokens(text) > max && text.length > 1) {
    text = `${text.slice(0, Math.max(1, Math.min(text.length - 2, max * 4 - 1))).trimEnd()}…`;
    if (estimateTokens(text) > max) text = text.slice(0, Math.floor(text.length * 0.9));
  }
  return { active, freshness, updated, text };
}
