// gitmem/recall: hybrid, keyword or semantic recall with the CLI's filters. During the first index
// build it answers an empty, clearly partial result (B31). Cancellable. deps: protocol, service (recall), vscode-languageserver.
import { ResponseError } from 'vscode-languageserver/node.js';
import { RecallRequest, type RecallParams, type RecallResult } from '../../protocol/requests.js';
import { cancelled, tick, type ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';
import { recall } from '../../service/recall/recall.js';

/** Register gitmem/recall. */
export function registerRecall(ctx: ServerContext): void {
  ctx.connection.onRequest(RecallRequest, async (p: RecallParams, token): Promise<RecallResult> => {
    await tick();
    if (token.isCancellationRequested) throw cancelled();
    if (!p || typeof p.query !== 'string') throw new ResponseError(-32602, 'gitmem/recall needs {query: string}');
    const s = ctx.session();
    const mode = p.mode ?? 'hybrid';
    if (!s || !s.indexed) {
      // B31: during the first index build, answer with an empty, clearly partial result.
      return {
        query: p.query,
        mode,
        degraded: 'the memory index is still being built; results will appear when gitmem/ready arrives',
        tookMs: 0,
        results: [],
      };
    }
    try {
      const res = await recall(s.memory.context, p.query, {
        ...(p.mode ? { mode: p.mode } : {}),
        ...(p.limit !== undefined ? { limit: p.limit } : {}),
        ...(p.types ? { types: p.types } : {}),
        ...(p.tags ? { tags: p.tags } : {}),
        ...(p.kinds ? { kinds: p.kinds } : {}),
        ...(p.file ? { file: p.file } : {}),
        ...(typeof p.since === 'string' ? { since: p.since } : {}),
        ...(typeof p.until === 'string' ? { until: p.until } : {}),
        // An agent's request is audited (service/recall/audit.ts); the editor's own search is a person's.
        ...(p.forAgent === true ? { audience: 'agent' as const, channel: 'lsp' } : {}),
      });
      if (token.isCancellationRequested) throw cancelled();
      return res as RecallResult;
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
