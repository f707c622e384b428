// gitmem/documents (every memory document with its error count, for the tree view),
// gitmem/getStatus (state plus freshness) and gitmem/reindex (full reconcile or rebuild).
// deps: editor, protocol.
import { documentSummaries } from '../../editor/symbols.js';
import { DocumentsRequest, GetStatusRequest, ReindexRequest, type Freshness } from '../../protocol/requests.js';
import type { ServerContext } from '../context.js';

/** Register gitmem/documents, gitmem/getStatus and gitmem/reindex. */
export function registerStatus(ctx: ServerContext): void {
  ctx.connection.onRequest(DocumentsRequest, () => {
    const s = ctx.session();
    if (!s?.model.loaded) return { documents: [] };
    return {
      documents: documentSummaries(s.model.workspace).map((d) => ({
        ...d,
        errors: ctx.diagnostics.errorCount(d.path),
      })),
    };
  });

  ctx.connection.onRequest(GetStatusRequest, () =>
    ctx.session() ? { ...ctx.status.state, freshness: freshness(ctx) } : ctx.status.state,
  );

  ctx.connection.onRequest(ReindexRequest, async (p) => {
    ctx.need();
    await ctx.updates.reindex(p?.rebuild === true);
    return ctx.status.state;
  });
}

function freshness(ctx: ServerContext): Freshness {
  const { status, updates } = ctx;
  return {
    watcher: status.watchSource,
    lastEventAt: status.lastEventAt,
    lastUpdateAt: status.lastUpdateAt,
    pending: updates.pending,
  };
}
