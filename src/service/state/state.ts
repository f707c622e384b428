// Working-state continuity (docs/DESIGN.md §5): read, snapshot, set, new (archive + reset), validate,
// handoff and absorb over CURRENT_STATE.md, plus the lifecycle entry points agent hosts call
// (startup, new, end of run, pre-compaction, post-turn). Each is a use case `fn(ctx, input)` over the
// opened workspace's MemoryContext. Every write is an atomic replace with optimistic concurrency
// (expected content hash → `fs.conflict`), serialised per file in-process and locked across processes.
// The writing use cases have a file each (set.ts, new.ts, absorb.ts) over the shared file steps in
// state-file.ts; this module holds the reads and the lifecycle calls over them.
// deps: core, continuity, service/state (its use cases).
import type { Diagnostic } from '../../core/diagnostics.js';
import type { StateUpdate } from '../../continuity/render-state.js';
import type { StateSnapshot } from '../../continuity/snapshot.js';
import { validateState } from '../../continuity/validate-state.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { absorbState, type StateAbsorbResult } from './absorb.js';
import { newState, type StateNewResult } from './new.js';
import { setState, type StateSetResult } from './set.js';
import { openStateFile, type StateInput, type StateRead, type WriteOptions } from './state-file.js';
import {
  trustedHandoff,
  trustedSnapshot,
  type StateAudience,
  type TrustedHandoff,
  type TrustedSnapshot,
} from './trusted.js';

export type { StateUpdate } from '../../continuity/render-state.js';
export type { StateSnapshot } from '../../continuity/snapshot.js';
export type { HandoffSeed } from '../../continuity/handoff.js';
export type { StateField, StateFields } from '../../continuity/sections.js';
export { statePath } from './state-file.js';
export type { StateInput, StateRead, WriteOptions } from './state-file.js';
export type { StateSetResult } from './set.js';
export type { StateNewResult } from './new.js';
export type { StateAbsorbResult } from './absorb.js';
export type { StateAudience, TrustedHandoff, TrustedSnapshot } from './trusted.js';

/**
 * `stateSnapshot`'s input: caps over config `state.snapshotMaxTokens` and `state.staleAfterHours`, and
 * who reads it (trusted.ts: `injected`, the default, or `person`).
 */
export interface StateSnapshotInput extends StateInput {
  readonly maxTokens?: number;
  readonly staleAfterHours?: number;
  readonly audience?: StateAudience;
}

/** `stateSet`'s input: the update, and with `ifChanged` a write only on a substantive change. */
export interface StateSetInput extends StateInput, WriteOptions {
  readonly update: StateUpdate;
  readonly ifChanged?: boolean;
}

/** `stateAbsorb`'s input: the child agent's CURRENT_STATE.md text. */
export interface StateAbsorbInput extends StateInput, WriteOptions {
  readonly childText: string;
}

/** The lifecycle calls' input (end of run, pre-compaction, post-turn): an optional update. */
export interface StateLifecycleInput extends StateInput, WriteOptions {
  readonly update?: StateUpdate;
}

/** CURRENT_STATE.md as read now (its path, whether it exists, its content hash, the parsed state). */
export async function stateRead(ctx: MemoryContext, input: StateInput = {}): Promise<StateRead> {
  return (await openStateFile(ctx, input)).read();
}

/**
 * The continuity block, plus the file's content hash to pass as `expectedHash` (null: no file).
 * Through the trust stage (trusted.ts): for `injected` (the default: the session-start hook, MCP)
 * framed as quoted data, secrets masked, flagged lines and unreviewed incoming state withheld
 * (`withheld` says what); for `person` every line, flagged ones labelled.
 */
export async function stateSnapshot(ctx: MemoryContext, input: StateSnapshotInput = {}): Promise<TrustedSnapshot> {
  const { maxTokens, staleAfterHours, audience, ...where } = input;
  return trustedSnapshot(await openStateFile(ctx, where), {
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(staleAfterHours !== undefined ? { staleAfterHours } : {}),
    ...(audience !== undefined ? { audience } : {}),
  });
}

/** Apply `update`, bump `Last updated`, atomic replace. `ifChanged`: write only on a substantive change. */
export async function stateSet(ctx: MemoryContext, input: StateSetInput): Promise<StateSetResult> {
  const { update, git, utcOffsetMinutes, ...options } = input;
  return setState(await openStateFile(ctx, { git, utcOffsetMinutes }), update, options);
}

/** Reset boundary: archive the outgoing state into today's daily note (append-only), then reset to the template. */
export async function stateNew(ctx: MemoryContext, input: StateInput & WriteOptions = {}): Promise<StateNewResult> {
  const { git, utcOffsetMinutes, ...options } = input;
  return newState(await openStateFile(ctx, { git, utcOffsetMinutes }), options);
}

/** Diagnostics of CURRENT_STATE.md (none when the file does not exist). */
export async function stateValidate(ctx: MemoryContext, input: StateInput = {}): Promise<Diagnostic[]> {
  const { path, clock, cfg, read } = await openStateFile(ctx, input);
  const cur = await read();
  if (!cur.exists) return [];
  return validateState(path, cur.parsed, { now: clock.now(), staleAfterHours: cfg.staleAfterHours });
}

/** Compact seed (objective, current step, key decisions) for a child agent, through the trust stage as `stateSnapshot` for `injected`. */
export async function stateHandoff(
  ctx: MemoryContext,
  input: StateInput & { readonly maxTokens?: number } = {},
): Promise<TrustedHandoff> {
  const { maxTokens, ...where } = input;
  return trustedHandoff(await openStateFile(ctx, where), maxTokens !== undefined ? { maxTokens } : {});
}

/** Append a child's Unsurfaced Results (its CURRENT_STATE.md text) to this state; nothing else changes. */
export async function stateAbsorb(ctx: MemoryContext, input: StateAbsorbInput): Promise<StateAbsorbResult> {
  const { childText, git, utcOffsetMinutes, ...options } = input;
  return absorbState(await openStateFile(ctx, { git, utcOffsetMinutes }), childText, options);
}

// Lifecycle entry points for agent hosts (docs/DESIGN.md §5).

/** Session start: the snapshot to inject. */
export async function stateStartup(ctx: MemoryContext, input: StateInput = {}): Promise<StateSnapshot> {
  return stateSnapshot(ctx, input);
}

/** End of a run: record `update` when it changes something; optional checkpoint of every memory change. */
export async function stateEndOfRun(ctx: MemoryContext, input: StateLifecycleInput = {}): Promise<StateSetResult> {
  const { update = {}, git, utcOffsetMinutes, commit: wanted, ...rest } = input;
  const file = await openStateFile(ctx, { git, utcOffsetMinutes });
  // The checkpoint at the end of a run covers every memory change, even when the state is unchanged.
  const res = await setState(file, update, { ...rest, ifChanged: true });
  const cp = await file.commit({ commit: wanted }, 'state: end of run', 'all');
  return cp ? { ...res, checkpoint: cp } : res;
}

/**
 * Before context compaction: write now (even without changes, to bump the time) and return only
 * after the file is durably on disk (temp + fsync + rename, then read back and compared).
 */
export async function statePreCompaction(ctx: MemoryContext, input: StateLifecycleInput = {}): Promise<StateSetResult> {
  const { update = {}, git, utcOffsetMinutes, ...options } = input;
  return setState(await openStateFile(ctx, { git, utcOffsetMinutes }), update, { ...options, verify: true });
}

/** After a turn: write only when `update` changes a field. */
export async function statePostTurn(ctx: MemoryContext, input: StateLifecycleInput = {}): Promise<StateSetResult> {
  const { update = {}, git, utcOffsetMinutes, ...options } = input;
  return setState(await openStateFile(ctx, { git, utcOffsetMinutes }), update, { ...options, ifChanged: true });
}
