// gitmem/recall: hybrid, keyword or semantic recall with the CLI's filters. During the first index
// build it answers an empty, clearly partial result (B31). Cancellable. deps: protocol, service (recall), vscode-languageserver.
import { ResponseError } from 'vscode-languageserver/node.js';
import { RecallRequest, type RecallParams, type RecallResult } from '../../protocol/requests.js';
import { cancelled, tick, type ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';
import { recall } from '../../service/recall/recall.js';
import { recallOptionsOf } from '../../service/recall/request.js';

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
      // An agent's request (forAgent) is audited (service/recall/audit.ts); the editor's own search is a person's.
      const res = await recall(
        s.memory.context,
        p.query,
        recallOptionsOf('lsp', p as unknown as Record<string, unknown>),
      );
      if (token.isCancellationRequested) throw cancelled();
      return res as RecallResult;
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
