// gitmem/remember: write one entry through the remember use case (the same guards as `gitmem remember`:
// confinement, secret scan, dedupe, validation), then show it in the editor model and index it.
// deps: core, service (through the session), protocol.
import type { RelPath } from '../../core/paths.js';
import { RememberRequest } from '../../protocol/requests.js';
import { remember } from '../../service/remember/remember.js';
import type { ServerContext } from '../context.js';
import { toResponseError } from '../convert.js';

/** Register gitmem/remember. */
export function registerRemember(ctx: ServerContext): void {
  ctx.connection.onRequest(RememberRequest, async (p) => {
    const s = ctx.need();
    try {
      const res = await remember(s.memory.context, {
        text: p?.text ?? '',
        ...(p?.type ? { type: p.type } : {}),
        ...(p?.tags ? { tags: p.tags } : {}),
        ...(p?.files ? { files: p.files } : {}),
        ...(p?.title ? { title: p.title } : {}),
        source: { origin: 'editor' },
      });
      if (res.status === 'created' && s.model.loaded) {
        const r = await s.model.reload(res.path as RelPath);
        ctx.diagnostics.publish(s, r.affected);
        ctx.updates.schedule(res.path as RelPath, 'created');
      }
      return res;
    } catch (e) {
      throw toResponseError(e);
    }
  });
}
