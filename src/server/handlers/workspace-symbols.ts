// workspace/symbol: with a query, a keyword recall (entries by id, other chunks by heading); with an
// empty query or while the index builds, entries by id filtered by the text. Cancellable.
// deps: core, editor, service (recall), vscode-languageserver.
import { SymbolKind, type SymbolInformation } from 'vscode-languageserver/node.js';
import type { RelPath } from '../../core/paths.js';
import { range as coreRange } from '../../core/position.js';
import { maskName } from '../../core/secret-mask.js';
import { documentSummaries } from '../../editor/symbols.js';
import { cancelled, guard, tick, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';
import { recall } from '../../service/recall/recall.js';

/** Register workspace/symbol. */
export function registerWorkspaceSymbols(ctx: ServerContext): void {
  ctx.connection.onWorkspaceSymbol(
    guard(
      ctx.log,
      'workspaceSymbol',
      [] as SymbolInformation[],
      async (p: { query: string }, token): Promise<SymbolInformation[]> => {
        await tick();
        if (token.isCancellationRequested) throw cancelled();
        const s = ctx.session();
        if (!s?.model.loaded) return [];
        const query = (p.query ?? '').trim();
        if (!query || !s.indexed) {
          // Empty query (or index still building): entries by id, filtered by the query text.
          const q = query.toLowerCase();
          return documentSummaries(s.model.workspace)
            .filter((d) => d.id && (!q || d.id.toLowerCase().includes(q) || (d.title ?? '').toLowerCase().includes(q)))
            .slice(0, 200)
            .map((d) => ({
              name: maskName(d.id!), // R143
              kind: SymbolKind.Key,
              location: { uri: ctx.uriOf(s, d.path), range: toLspRange(coreRange(0, 0, 0, 0)) },
              containerName: maskName(d.path),
            }));
        }
        const res = await recall(s.memory.context, query, { mode: 'keyword', limit: 50 });
        if (token.isCancellationRequested) throw cancelled();
        return res.results.map((r) => ({
          name: r.entry?.id ?? r.headingPath[r.headingPath.length - 1] ?? r.path,
          kind: r.entry ? SymbolKind.Key : SymbolKind.String,
          location: {
            uri: ctx.uriOf(s, r.path as RelPath),
            range: toLspRange(coreRange(r.startLine - 1, 0, r.endLine - 1, 0)),
          },
          containerName: r.path,
        }));
      },
    ),
  );
}
