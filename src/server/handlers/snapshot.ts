// gitmem/snapshot: the working-state snapshot of CURRENT_STATE.md, read through the overlay so an
// unsaved buffer is what it shows. deps: service, protocol.
import { statePath, stateSnapshot } from '../../service/state/state.js';
import { SnapshotRequest, type SnapshotResult } from '../../protocol/requests.js';
import type { ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';

/** Register gitmem/snapshot. */
export function registerSnapshot(ctx: ServerContext): void {
  ctx.connection.onRequest(SnapshotRequest, async (): Promise<SnapshotResult> => {
    const s = ctx.need();
    try {
      // Reads through the overlay (the context's file system): an unsaved CURRENT_STATE.md buffer is
      // what the snapshot shows. Its freshness is judged by the server's clock.
      const state = { ...s.memory.context, clock: ctx.clock };
      // A person's view (Show Current State): every line, flagged ones labelled, secrets masked.
      const snap = await stateSnapshot(state, {
        git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
        audience: 'person',
      });
      const path = await statePath(state);
      return {
        ...snap,
        path,
        ...(snap.active ? {} : { reason: `${path} holds no active working state` }),
      };
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
