// Conservative sub-agent handoff (docs/DESIGN.md §5): a compact seed for a child agent (objective, current
// step, key decisions — nothing else), and absorbing the child's Unsurfaced Results back into the
// parent's state without touching any other field. Pure; imports only core.
import { applyStateUpdate } from './render-state.js';
import { estimateTokens, itemKey, type StateFields } from './sections.js';

export interface HandoffSeed {
  readonly objective: string;
  readonly step: string;
  readonly decisions: readonly string[];
  /** The seed as text for the child's prompt; '' when there is no objective to hand off. */
  readonly text: string;
}

/** The seed's first line. */
export const HANDOFF_HEAD = 'Handoff from the parent agent.';

function clip(text: string, max: number): string {
  const one = text.replace(/\s*\n\s*/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

/**
 * @returns the seed for a child agent, at most `maxTokens` (estimated); the oldest decisions are
 * left out first (and counted), then values are clipped. `preface` lines go under the first line
 * (the trust stage's framing line and withheld note).
 */
export function handoffSeed(
  fields: StateFields,
  options: { maxTokens: number; preface?: readonly string[] },
): HandoffSeed {
  const base = { objective: fields.objective, step: fields.step, decisions: fields.decisions };
  if (!fields.objective) return { ...base, text: '' };
  const render = (shown: number, chars: number) => {
    const out = [HANDOFF_HEAD, ...(options.preface ?? []), `Objective: ${clip(fields.objective, chars)}`];
    if (fields.step) out.push(`Current step: ${clip(fields.step, chars)}`);
    if (fields.decisions.length) {
      out.push('Key decisions already taken (do not reopen them):');
      const skipped = fields.decisions.length - shown;
      if (skipped > 0) out.push(`- (${skipped} earlier decision${skipped === 1 ? '' : 's'} omitted)`);
      for (const d of fields.decisions.slice(skipped)) out.push(`- ${clip(d, Math.floor(chars / 2))}`);
    }
    out.push(
      'Report what you find that the user has not seen yet under "## Unsurfaced Results" in your CURRENT_STATE.md; the parent absorbs it with `gitmem state absorb`.',
    );
    return out.join('\n');
  };
  let shown = fields.decisions.length;
  let chars = 600;
  let text = render(shown, chars);
  while (estimateTokens(text) > options.maxTokens && (shown > 0 || chars > 40)) {
    if (shown > 0) shown--;
    else chars = Math.floor(chars * 0.8);
    text = render(shown, chars);
  }
  return { ...base, text };
}

/**
 * Bring a child's unsurfaced results into the parent's fields. Only `results` changes, and only by
 * appending items the parent does not already have.
 * @returns the new fields, the items added and the items the parent already had.
 */
export function absorbResults(
  parent: StateFields,
  child: StateFields,
): { fields: StateFields; added: string[]; duplicates: string[] } {
  const have = new Set(parent.results.map(itemKey));
  const added: string[] = [];
  const duplicates: string[] = [];
  for (const r of child.results) {
    const k = itemKey(r);
    if (have.has(k)) duplicates.push(r);
    else {
      have.add(k);
      added.push(r);
    }
  }
  return { fields: applyStateUpdate(parent, { results: added }), added, duplicates };
}
