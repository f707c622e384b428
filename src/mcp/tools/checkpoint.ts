// `memory_checkpoint`: commit the memory changes to git (memory files only). Its definition (JSON Schema of
// the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { checkpointMemory } from '../../service/git-ops/checkpoint.js';
import { object, str, writes } from './schema.js';
import type { McpTool } from './types.js';

export const memoryCheckpoint: McpTool = {
  definition: {
    name: 'memory_checkpoint',
    description:
      'Commit the memory changes to git (memory files only; other work in the repository is left alone). Returns the commit, or nothing-to-commit.',
    inputSchema: object({
      message: str('Commit message (default: a summary of the changes).', { maxLength: 2000 }),
      reason: str('Why the memory changed (Memory-Reason trailer).', { maxLength: 2000 }),
    }),
    annotations: writes('Checkpoint memory', false, false),
  },
  async handle({ memory, git }, a) {
    const res = await checkpointMemory(memory.context, {
      git,
      ...(a.message ? { message: a.message as string } : {}),
      ...(a.reason ? { reason: a.reason as string } : {}),
    });
    return { ...res };
  },
};
