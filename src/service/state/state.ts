// Working-state continuity service (docs/DESIGN.md §5): read, snapshot, set, new (archive + reset), validate,
// handoff and absorb over CURRENT_STATE.md, plus the lifecycle entry points agent hosts call
// (startup, new, end of run, pre-compaction, post-turn). Every write is an atomic replace with
// optimistic concurrency (expected content hash → `fs.conflict`), serialised per file in-process.
// The writing use cases have a file each (set.ts, new.ts, absorb.ts) over the shared file steps in
// state-file.ts; this module assembles them with the reads into the one service.
// deps: core, continuity, service/state (its use cases).
import type { Diagnostic } from '../../core/diagnostics.js';
import type { RelPath } from '../../core/paths.js';
import type { StateUpdate } from '../../continuity/render-state.js';
import type { StateSnapshot } from '../../continuity/snapshot.js';
import { validateState } from '../../continuity/validate-state.js';
import { absorbState, type StateAbsorbResult } from './absorb.js';
import { newState, type StateNewResult } from './new.js';
import { setState, type StateSetResult } from './set.js';
import { openStateFile, type StateRead, type StateServiceDeps, type WriteOptions } from './state-file.js';
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
export type { StateRead, StateServiceDeps, WriteOptions } from './state-file.js';
export type { StateSetResult } from './set.js';
export type { StateNewResult } from './new.js';
export type { StateAbsorbResult } from './absorb.js';
export type { StateAudience, TrustedHandoff, TrustedSnapshot } from './trusted.js';

/** The working-state API: CLI, MCP and agent hosts all go through it. */
export interface StateService {
  /** CURRENT_STATE.md of the workspace's layout. */
  readonly path: RelPath;
  read(): Promise<StateRead>;
  /**
   * The continuity block, plus the file's content hash to pass as `expectedHash` (null: no file).
   * Through the trust stage (trusted.ts): for `injected` (the default: the session-start hook, MCP)
   * framed as quoted data, secrets masked, flagged lines and unreviewed incoming state withheld
   * (`withheld` says what); for `person` every line, flagged ones labelled.
   */
  snapshot(options?: {
    maxTokens?: number;
    staleAfterHours?: number;
    audience?: StateAudience;
  }): Promise<TrustedSnapshot>;
  /** Apply `update`, bump `Last updated`, atomic replace. `ifChanged`: write only on a substantive change. */
  set(update: StateUpdate, options?: WriteOptions & { ifChanged?: boolean }): Promise<StateSetResult>;
  /** Reset boundary: archive the outgoing state into today's daily note (append-only), then reset to the template. */
  'new'(options?: WriteOptions): Promise<StateNewResult>;
  validate(): Promise<Diagnostic[]>;
  /** Compact seed (objective, current step, key decisions) for a child agent, through the trust stage as `snapshot` for `injected`. */
  handoff(options?: { maxTokens?: number }): Promise<TrustedHandoff>;
  /** Append a child's Unsurfaced Results (its CURRENT_STATE.md text) to this state; nothing else changes. */
  absorb(childText: string, options?: WriteOptions): Promise<StateAbsorbResult>;

  // Lifecycle entry points for agent hosts (docs/DESIGN.md §5).
  /** Session start: the snapshot to inject. */
  startup(): Promise<StateSnapshot>;
  /** End of a run: record `update` when it changes something; optional checkpoint. */
  endOfRun(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
  /**
   * Before context compaction: write now (even without changes, to bump the time) and return only
   * after the file is durably on disk (temp + fsync + rename, then read back and compared).
   */
  preCompaction(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
  /** After a turn: write only when `update` changes a field. */
  postTurn(update?: StateUpdate, options?: WriteOptions): Promise<StateSetResult>;
}

/** Create the working-state service for an opened workspace. */
export async function createStateService(deps: StateServiceDeps): Promise<StateService> {
  const file = await openStateFile(deps);
  const { path, clock, cfg, read, commit } = file;
  const service: StateService = {
    path,
    read,
    snapshot: (options) => trustedSnapshot(file, options),
    set: (update, options) => setState(file, update, options),
    new: (options) => newState(file, options),
    async validate() {
      const cur = await read();
      if (!cur.exists) return [];
      return validateState(path, cur.parsed, { now: clock.now(), staleAfterHours: cfg.staleAfterHours });
    },
    handoff: (options) => trustedHandoff(file, options),
    absorb: (childText, options) => absorbState(file, childText, options),
    async startup() {
      return service.snapshot();
    },
    async endOfRun(update = {}, options = {}) {
      // The checkpoint at the end of a run covers every memory change, even when the state is unchanged.
      const { commit: wanted, ...rest } = options;
      const res = await setState(file, update, { ...rest, ifChanged: true });
      const cp = await commit({ commit: wanted }, 'state: end of run', 'all');
      return cp ? { ...res, checkpoint: cp } : res;
    },
    preCompaction: (update = {}, options = {}) => setState(file, update, { ...options, verify: true }),
    postTurn: (update = {}, options = {}) => setState(file, update, { ...options, ifChanged: true }),
  };
  return service;
}
