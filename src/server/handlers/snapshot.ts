// gitmem/snapshot: the working-state snapshot of CURRENT_STATE.md, read through the overlay so an
// unsaved buffer is what it shows. deps: service, protocol.
import { createStateService } from '../../service/state/state.js';
import { SnapshotRequest, type SnapshotResult } from '../../protocol/requests.js';
import type { ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';

/** Register gitmem/snapshot. */
export function registerSnapshot(ctx: ServerContext): void {
  ctx.connection.onRequest(SnapshotRequest, async (): Promise<SnapshotResult> => {
    const s = ctx.need();
    try {
      // Reads through the overlay: an unsaved CURRENT_STATE.md buffer is what the snapshot shows.
      const svc = await createStateService({
        memory: s.memory,
        fs: s.overlay,
        clock: ctx.clock,
        git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
      });
      // A person's view (Show Current State): every line, flagged ones labelled, secrets masked.
      const snap = await svc.snapshot({ audience: 'person' });
      return {
        ...snap,
        path: svc.path,
        ...(snap.active ? {} : { reason: `${svc.path} holds no active working state` }),
      };
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
