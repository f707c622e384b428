// `memory_audit`: recent retrievals from the recall audit log. Its definition (JSON Schema of the
// arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { readAudit } from '../../service/recall/audit.js';
import { object, readOnly } from './schema.js';
import type { McpTool } from './types.js';

export const memoryAudit: McpTool = {
  definition: {
    name: 'memory_audit',
    description:
      'Recent retrievals, newest first: for each recall the time, query, mode, result paths with 1-based line ranges, and the bytes injected as context. Logged only while "recall": {"audit": true} is set in gitmem.config.json (enabled says whether it is).',
    inputSchema: object({
      limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many entries (default 20).' },
    }),
    annotations: readOnly('Audit recalls'),
  },
  async handle({ memory }, a) {
    const entries = await readAudit(memory.storage, (a.limit as number | undefined) ?? 20);
    return { enabled: memory.config.recall.audit, entries };
  },
};
