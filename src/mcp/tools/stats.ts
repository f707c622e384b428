// `memory_stats`: counts of memory documents, index and model state, working-state summary. Its definition
// (JSON Schema of the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.

import { doctor as doctorReport } from '../../service/doctor/doctor.js';
import { stateSnapshot } from '../../service/state/state.js';
import { object, readOnly } from './schema.js';
import type { McpTool } from './types.js';

export const memoryStats: McpTool = {
  definition: {
    name: 'memory_stats',
    description:
      'Counts of memory documents by kind, entries by type and status; index freshness; embedding model state; working-state summary.',
    inputSchema: object({}),
    annotations: readOnly('Memory stats'),
  },
  async handle({ memory, git }) {
    const ws = await memory.context.workspace();
    const byKind: Record<string, number> = {};
    const byType: Record<string, number> = {};
    const byStatus: Record<string, number> = {};
    let chunks = 0;
    for (const d of ws.docs()) {
      byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
      chunks += d.chunks.length;
      if (d.kind === 'entry') {
        const t = d.meta.type ?? '(none)';
        byType[t] = (byType[t] ?? 0) + 1;
        const st = d.meta.duplicateOf ? 'duplicate' : (d.meta.status ?? 'active');
        byStatus[st] = (byStatus[st] ?? 0) + 1;
      }
    }
    const doctor = await doctorReport(memory.context);
    const snap = await stateSnapshot(memory.context, { git });
    return {
      root: memory.root,
      layout: doctor.layout.name,
      documents: ws.size,
      chunks,
      byKind,
      entries: { byType, byStatus },
      index: doctor.index,
      model: doctor.model,
      git: doctor.git,
      files: doctor.files,
      state: { active: snap.active, freshness: snap.freshness, updated: snap.updated },
    };
  },
};
