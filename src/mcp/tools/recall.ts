// `memory_recall`: search the memory by meaning and keyword (the recall use case, with the one recall-
// request mapper). Its definition (JSON Schema of the arguments, annotations) and its handler. deps: mcp
// (tools/schema), service, core.
import { DOC_KINDS, ENTRY_TYPES } from '../../core/document.js';
import { recall } from '../../service/recall/recall.js';
import { recallOptionsOf } from '../../service/recall/request.js';
import { object, readOnly, str, strings } from './schema.js';
import type { McpTool } from './types.js';

export const memoryRecall: McpTool = {
  definition: {
    name: 'memory_recall',
    description:
      'Search the project memory (markdown in git) by meaning and keyword. Returns ranked chunks with path, 1-based line range, heading path, snippet and, for typed entries, id/type/tags. Use before starting work and when a question may have been answered before.',
    inputSchema: object(
      {
        // No minLength: an empty query is an empty result with a hint, as in the CLI and the backends.
        query: str('What to look for, in plain words (an empty query returns no results and a hint).', {
          maxLength: 2000,
        }),
        mode: {
          type: 'string',
          enum: ['keyword', 'vector', 'hybrid'],
          description: 'Recall mode (default hybrid; keyword when no model is installed).',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Number of results (default 10).' },
        types: strings('Only entries of these types.', { type: 'string', enum: [...ENTRY_TYPES] }),
        tags: strings('Only memories with these tags.'),
        kinds: strings('Only these document kinds.', { type: 'string', enum: [...DOC_KINDS] }),
        file: str('Only entries linked to code files matching this glob.', { maxLength: 1000 }),
        since: str('Only memories dated on or after YYYY-MM-DD.', { pattern: '^\\d{4}-\\d{2}-\\d{2}' }),
        until: str('Only memories dated on or before YYYY-MM-DD.', { pattern: '^\\d{4}-\\d{2}-\\d{2}' }),
        all: { type: 'boolean', description: 'Include superseded, archived and duplicate memories.' },
        history: {
          type: 'boolean',
          description:
            'Every version of a rule or fact that later notes restate, oldest first, all in the block (default: the newest; older ones carry supersededBy and newerStatement).',
        },
        budget: {
          type: 'integer',
          minimum: 64,
          maximum: 100000,
          description:
            'Also render a "### Recalled Context" block of at most this many UTF-8 bytes (field context.text): the most relevant lines, path and line numbers per item.',
        },
        context: {
          type: 'integer',
          minimum: 0,
          maximum: 50,
          description: 'Lines of surrounding context per result (field contextSpan).',
        },
      },
      ['query'],
    ),
    annotations: readOnly('Recall memory'),
  },
  async handle({ memory }, a) {
    // A block (budget) is what clients inject into a prompt: the injection policy applies (request.ts).
    const res = await recall(memory.context, a.query as string, recallOptionsOf('mcp', a));
    return res as unknown as Record<string, unknown>;
  },
};
