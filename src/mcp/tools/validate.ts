// `memory_validate`: check memory files and answer LSP-shaped diagnostics. Its definition (JSON Schema of
// the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import { validate } from '../../service/validate/validate.js';
import { diagnosticReport } from '../../core/diagnostics.js';
import { asStrings, object, readOnly, strings } from './schema.js';
import type { McpTool } from './types.js';

export const memoryValidate: McpTool = {
  definition: {
    name: 'memory_validate',
    description:
      'Check memory files: front-matter schema, types, duplicate ids, broken links, CURRENT_STATE problems. Returns LSP-shaped diagnostics (0-based ranges).',
    inputSchema: object({
      paths: strings('Workspace-relative memory files (default: all).', {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
      }),
    }),
    annotations: readOnly('Validate memory'),
  },
  async handle({ memory }, a) {
    return diagnosticReport(await validate(memory.context, { paths: asStrings(a.paths) }));
  },
};
