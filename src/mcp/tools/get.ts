// `memory_get`: read a memory by id or path[:start[-end]], in bounded pages, with its trust. Its definition
// (JSON Schema of the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { pageCursor, pageOf } from '../page.js';
import { get } from '../../service/files/get.js';
import { trustOfSpan } from '../../service/trust/stage.js';
import { object, readOnly, str } from './schema.js';
import type { McpTool } from './types.js';

export const memoryGet: McpTool = {
  definition: {
    name: 'memory_get',
    description:
      'Read a memory by entry id, or a memory file with an optional line range: "path[:start[-end]]" (1-based, as recall returns them). A reply holds at most 64 KB and 1,000 lines: when cut, "truncated" is true and "next" is the id of the following page ("path:start-end", or "path:line.column-end" when a line longer than a reply goes on).',
    inputSchema: object(
      { id: str('Entry id, path[:start[-end]], or a "next" cursor.', { minLength: 1, maxLength: 1100 }) },
      ['id'],
    ),
    annotations: readOnly('Get memory'),
  },
  async handle({ memory }, a) {
    // Bounded replies: a 5 MB note comes back in pages (`truncated`, `next` = "path:start-end", or
    // "path:line.column-end" inside a line over the cap, U61).
    const { ref, column } = pageCursor(a.id as string);
    const page = pageOf(await get(memory.context, { ref }), { column });
    // Where the lines come from and whether a person reviewed them (service/trust/).
    return { ...page, ...(await trustOfSpan(memory.context, page)) };
  },
};
