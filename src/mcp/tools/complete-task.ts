// `memory_complete_task`: record a finished task (ACE complete-task). Its definition (JSON Schema of the
// arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { ENTRY_TYPES } from '../../core/document.js';
import { MAX_TEXT_CHARS } from '../../core/write-limits.js';
import { completeTask } from '../../service/ace/complete-task.js';
import { TAG_PATTERN, object, str, strings, writes } from './schema.js';
import type { McpTool } from './types.js';

export const memoryCompleteTask: McpTool = {
  definition: {
    name: 'memory_complete_task',
    description:
      'Record a finished task (ACE): classifies it, links the code files from tool_usage, writes a typed entry (deduplicated), updates related playbook entries, and commits each change when in git. Call once at the end of a task.',
    inputSchema: object(
      {
        goal: str('What the task set out to do.', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        result: str('What happened (the outcome).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        tool_usage: {
          type: 'array',
          description: 'Tool calls made during the task: {tool_name, arguments?, result?}.',
          maxItems: 2000,
          items: {
            type: 'object',
            required: ['tool_name'],
            properties: { tool_name: { type: 'string', minLength: 1 } },
          },
        },
        feedback: str('What the user or reviewer said afterwards.', { maxLength: MAX_TEXT_CHARS }),
        agent: str('Agent name (claude-code, codex, …).', { maxLength: 200 }),
        session: str('Session id.', { maxLength: 200 }),
        task: str('Task id.', { maxLength: 200 }),
        tags: strings('Extra tags.', { type: 'string', minLength: 1, maxLength: 100, pattern: TAG_PATTERN }),
        type: { type: 'string', enum: [...ENTRY_TYPES], description: 'Force the memory type.' },
        commit: { type: 'boolean', description: 'Checkpoint-commit each change when in git (default true).' },
      },
      ['goal', 'result'],
    ),
    annotations: writes('Complete task', false, false),
  },
  async handle({ memory, git }, a) {
    const { commit, ...task } = a;
    const res = await completeTask(memory.context, { git, task, ...(commit === false ? { commit: false } : {}) });
    return { ...res };
  },
};
