// `memory_remember`: write a typed memory entry (service/remember/remember.ts: deduplicated, contradiction check). Its
// definition (JSON Schema of the arguments, annotations) and its handler. deps: mcp (tools/schema),
// service, core.
import { remember } from '../../service/remember/remember.js';
import { ENTRY_TYPES } from '../../core/document.js';
import { MAX_TEXT_CHARS } from '../../core/write-limits.js';
import { TAG_PATTERN, asStrings, object, str, strings, writes } from './schema.js';
import type { McpTool } from './types.js';

export const memoryRemember: McpTool = {
  definition: {
    name: 'memory_remember',
    description:
      'Write a typed memory entry (a markdown file with YAML front-matter under entries/). Deduplicated against entries of the same type: returns status "duplicate" and writes nothing when it is already known. When the new entry contradicts one of the same type and tags, it is still written and the answer has possible_conflict {id, path, reasons, options}: supersede the old one or keep both (ask the user; never merge).',
    inputSchema: object(
      {
        text: str('The memory, one self-contained statement (markdown).', { minLength: 1, maxLength: MAX_TEXT_CHARS }),
        type: { type: 'string', enum: [...ENTRY_TYPES], description: 'Memory type (default learning).' },
        tags: strings('Tags.', { type: 'string', minLength: 1, maxLength: 100, pattern: TAG_PATTERN }),
        files: strings('Workspace-relative code files the memory is about.', {
          type: 'string',
          minLength: 1,
          maxLength: 1000,
        }),
        title: str('Title (default: the first words of the text).', { minLength: 1, maxLength: 200 }),
      },
      ['text'],
    ),
    annotations: writes('Remember', false, true),
  },
  async handle({ memory }, a) {
    const res = await remember(memory.context, {
      text: a.text as string,
      ...(a.type ? { type: a.type as string } : {}),
      ...(a.tags ? { tags: asStrings(a.tags)! } : {}),
      ...(a.files ? { files: asStrings(a.files)! } : {}),
      ...(a.title ? { title: a.title as string } : {}),
      source: { origin: 'mcp' },
    });
    return { ...res };
  },
};
