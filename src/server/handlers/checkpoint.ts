// gitmem/checkpoint and gitmem/memoryDiff: commit the memory files (service/git-ops/checkpoint.ts and diff.ts, the same
// guards as `gitmem checkpoint`) and diff memory between two revisions. deps: service, protocol.
import { checkpointMemory, type CheckpointReport } from '../../service/git-ops/checkpoint.js';
import { diffMemory } from '../../service/git-ops/diff.js';
import { requireRevision } from '../../service/git-ops/as-of.js';
import {
  CheckpointRequest,
  MemoryDiffRequest,
  type CheckpointResult,
  type MemoryDiffResult,
} from '../../protocol/requests.js';
import type { ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';

/**
 * A service checkpoint report as the wire's `CheckpointResult` (protocol/requests.ts), with the
 * committed files recall skips (`oversized`, U68): fresh arrays,
 * so the reply never shares the service's objects. Used by gitmem/checkpoint and the review view.
 */
export function toCheckpointResult(res: CheckpointReport): CheckpointResult {
  if (res.kind === 'nothing-to-commit') return { kind: 'nothing-to-commit', head: res.head };
  return {
    kind: 'committed',
    oid: res.oid,
    branch: res.branch,
    summary: res.summary,
    changes: {
      added: [...res.changes.added],
      modified: [...res.changes.modified],
      deleted: [...res.changes.deleted],
    },
    oversized: res.oversized.map(({ path, bytes }) => ({ path, bytes })),
  };
}

/** Register gitmem/checkpoint and gitmem/memoryDiff. */
export function registerCheckpoint(ctx: ServerContext): void {
  ctx.connection.onRequest(CheckpointRequest, async (p): Promise<CheckpointResult> => {
    const s = ctx.need();
    try {
      const res = await checkpointMemory(s.memory.context, {
        git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
        ...(p?.message ? { message: p.message } : {}),
        ...(p?.reason ? { reason: p.reason } : {}),
        ...(p?.force ? { force: true } : {}),
      });
      return toCheckpointResult(res);
    } catch (e) {
      throw toResponseError(e);
    }
  });

  ctx.connection.onRequest(MemoryDiffRequest, async (p): Promise<MemoryDiffResult> => {
    const s = ctx.need();
    try {
      const from = requireRevision(p?.from);
      const res = await diffMemory(s.memory.context, {
        git: { gitdir: s.platform.gitdir, workTree: s.platform.workTree },
        from,
        to: p?.to ? requireRevision(p.to) : undefined,
      });
      return JSON.parse(JSON.stringify(res)) as MemoryDiffResult;
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
