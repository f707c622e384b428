// The working state as it reaches an agent or a person: CURRENT_STATE.md through the trust stage
// (service/trust/quoted-file.ts) before the snapshot or the handoff seed is made of it. For an
// injected audience (the session-start snapshot: `gitmem state snapshot`, the SessionStart hook,
// MCP memory_state; the handoff to a child agent) secrets are masked, flagged lines withheld per
// `recall.inject` (or labelled when it allows them), a state that arrived by sync and is not
// reviewed is withheld whole, and what was withheld is said in one line; the block is framed as
// quoted data. A person (`gitmem state show`, the editor's Show Current State) sees every line,
// flagged ones labelled, the file's label (commit, review state) under the header.
// deps: continuity, service/trust, service/state.
import { handoffSeed, HANDOFF_HEAD, type HandoffSeed } from '../../continuity/handoff.js';
import { parseState } from '../../continuity/parse-state.js';
import type { StateSnapshot } from '../../continuity/snapshot.js';
import { quoteFile } from '../trust/quoted-file.js';
import { BLOCK_PREFACE } from '../trust/stage.js';
import type { RecallAudience } from '../trust/types.js';
import type { StateFile } from './state-file.js';

/** Who reads the state: an agent the state is injected into (default), or a person. */
export type StateAudience = Extract<RecallAudience, 'person' | 'injected'>;

/** A snapshot with its content hash, and the one line saying what was withheld, when something was. */
export type TrustedSnapshot = StateSnapshot & { readonly hash: string | null; readonly withheld?: string };

/** A handoff seed, and the one line saying what was withheld, when something was. */
export type TrustedHandoff = HandoffSeed & { readonly withheld?: string };

/** The snapshot of the state for `audience` (see the module comment). */
export async function trustedSnapshot(
  file: StateFile,
  options: { maxTokens?: number; staleAfterHours?: number; audience?: StateAudience } = {},
): Promise<TrustedSnapshot> {
  const cur = await file.read();
  // No file: nothing to continue, and no time to call fresh.
  if (!cur.exists || cur.text === undefined)
    return { active: false, freshness: 'stale', updated: null, text: '', hash: null };
  const audience = options.audience ?? 'injected';
  const q = await quoteFile(file.ctx, file.path, cur.text, audience);
  const { audience: _a, ...sizes } = options;
  if (q.withheld) {
    const snap = file.snapshotOf(cur.parsed, sizes);
    if (!snap.active) return { ...snap, hash: cur.hash };
    // The header (path, time, freshness) and the note: nothing of the state itself.
    return { ...snap, text: `${snap.text.split('\n')[0]}\n${q.note}`, hash: cur.hash, withheld: q.note! };
  }
  const preface =
    audience === 'person'
      ? q.label
        ? [`${file.path} · ${q.label}`]
        : []
      : [BLOCK_PREFACE, ...(q.note ? [q.note] : [])];
  const snap = file.snapshotOf(parseState(q.text), { ...sizes, preface });
  // The withheld line was what made the state active (its Objective): the header and the note, never
  // an empty block that hides that anything was withheld (R132).
  if (!snap.active && q.note) {
    const whole = file.snapshotOf(cur.parsed, sizes);
    if (whole.active)
      return { ...whole, text: [whole.text.split('\n')[0], ...preface].join('\n'), hash: cur.hash, withheld: q.note };
  }
  return { ...snap, hash: cur.hash, ...(q.note ? { withheld: q.note } : {}) };
}

/** The handoff seed for a child agent (an injected audience), through the trust stage. */
export async function trustedHandoff(file: StateFile, options: { maxTokens?: number } = {}): Promise<TrustedHandoff> {
  const maxTokens = options.maxTokens ?? file.cfg.snapshotMaxTokens;
  const cur = await file.read();
  if (!cur.exists || cur.text === undefined) return handoffSeed(cur.parsed.fields, { maxTokens });
  const q = await quoteFile(file.ctx, file.path, cur.text, 'injected');
  if (q.withheld)
    return { objective: '', step: '', decisions: [], text: `${HANDOFF_HEAD}\n${q.note}`, withheld: q.note! };
  const seed = handoffSeed(parseState(q.text).fields, {
    maxTokens,
    preface: [BLOCK_PREFACE, ...(q.note ? [q.note] : [])],
  });
  return { ...seed, ...(q.note ? { withheld: q.note } : {}) };
}
