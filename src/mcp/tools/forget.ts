// `memory_forget`: archive a memory entry (status: archived; never deletes). Its definition (JSON Schema of
// the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { MemoryError } from '../../core/errors.js';
import { forgetEntry } from '../../service/files/forget.js';
import { object, str, writes } from './schema.js';
import type { McpTool } from './types.js';

export const memoryForget: McpTool = {
  definition: {
    name: 'memory_forget',
    description:
      'Archive a memory entry: sets `status: archived` in its front-matter (only that field changes — a one-line, reviewable git diff). Never deletes; recall hides archived entries unless all=true.',
    inputSchema: object(
      {
        id: str('Entry id, or the entry file path.', { minLength: 1, maxLength: 1000 }),
        commit: { type: 'boolean', description: 'Checkpoint-commit the change.' },
      },
      ['id'],
    ),
    annotations: writes('Forget (archive) memory', true, true),
  },
  async handle({ memory, git }, a) {
    try {
      return {
        ...(await forgetEntry(memory.context, { ref: a.id as string, git, ...(a.commit ? { commit: true } : {}) })),
      };
    } catch (e) {
      // The shared hint names the CLI's --no-commit; over MCP that is `commit: false` (U41).
      if (!(e instanceof MemoryError) || e.code !== 'git.uncommitted-edits') throw e;
      throw new MemoryError(e.code, e.message, {
        ...(e.data ? { data: { ...e.data } } : {}),
        hint: (e.hint ?? '').replace('run again with --no-commit', 'call again with commit: false (the default)'),
      });
    }
  },
};
