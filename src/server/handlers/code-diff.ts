// gitmem/codeDiff: a cited code file's changes since a memory was written (service/trust/code-diff.ts),
// as the stale-code action "show the changes" asks them (the VS Code command gitmem.openCodeDiff).
// deps: service, protocol, vscode-languageserver.
import { ResponseError } from 'vscode-languageserver/node.js';
import { codeDiffSince } from '../../service/trust/code-diff.js';
import { CodeDiffRequest, type CodeDiffParams, type CodeDiffResult } from '../../protocol/requests.js';
import type { ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';

/** Register gitmem/codeDiff. */
export function registerCodeDiff(ctx: ServerContext): void {
  ctx.connection.onRequest(CodeDiffRequest, async (p: CodeDiffParams): Promise<CodeDiffResult> => {
    if (!p || typeof p.path !== 'string' || typeof p.since !== 'string')
      throw new ResponseError(-32602, 'gitmem/codeDiff needs {path: string, since: string, movedTo?: string}');
    const s = ctx.need();
    try {
      return await codeDiffSince(s.memory.context, {
        path: p.path,
        since: p.since,
        ...(typeof p.movedTo === 'string' ? { movedTo: p.movedTo } : {}),
      });
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
