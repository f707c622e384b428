// `memory_observe`: capture a turn or observation in today's daily note. Its definition (JSON Schema of the
// arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { MAX_TEXT_CHARS } from '../../core/write-limits.js';
import { refuseInInput } from '../../core/write-guard.js';
import { appendDaily } from '../../service/remember/daily.js';
import { object, str, writes } from './schema.js';
import type { McpTool } from './types.js';

export const memoryObserve: McpTool = {
  definition: {
    name: 'memory_observe',
    description:
      "Capture a turn or observation in today's daily note (YYYY-MM-DD.md): one timestamped bullet appended atomically under the per-file lock, with its role and source reference (source, session). Call after a turn whose content may matter later; durable facts belong in memory_remember. Refuses text that looks like a credential (secret.found).",
    inputSchema: object(
      {
        text: str('What happened or was said (markdown).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        role: {
          type: 'string',
          enum: ['user', 'assistant', 'tool', 'system', 'observation'],
          description: 'Who produced it (default observation).',
        },
        source: str('Where it came from: host, hook or tool name (default mcp).', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n\\u2028\\u2029\\u0085]+$',
        }),
        session: str('Session id, so turns can be traced back.', {
          minLength: 1,
          maxLength: 200,
          pattern: '^[^\\r\\n\\u2028\\u2029\\u0085]+$',
        }),
      },
      ['text'],
    ),
    annotations: writes('Observe a turn', false, false),
  },
  async handle({ memory }, a) {
    const role = (a.role as string | undefined) ?? 'observation';
    const source = (a.source as string | undefined) ?? 'mcp';
    const session = a.session as string | undefined;
    // Refuse before anything is composed from the input (the file system guard checks the note too).
    refuseInInput('observe', { text: a.text as string, source, ...(session ? { session } : {}) });
    // The use case composes the bullet, so the size cap is checked on the text as sent (U66).
    const res = await appendDaily(memory.context, {
      text: a.text as string,
      observation: { role, source, ...(session ? { session } : {}) },
    });
    return { ...res, role, source, session: session ?? null };
  },
};
