// Bad input U25 (docs/bad-inputs.md): a task whose tool_usage lists tens of thousands of calls (a bulk
// edit, a log replayed whole). extractFiles copied every path seen so far into a new Set for each
// call, so the work grew with the square of the calls: 100,000 Edit calls kept `complete-task` busy for
// over ten minutes. It now asks its own map. 20,000 calls are handled like 3: one event per call,
// the strongest relation per path, at most `max` files.
import { describe, expect, it } from 'vitest';
import { extractFiles } from '../../../src/ace/tool-files.js';

describe('extractFiles over many tool calls (U25)', () => {
  it('20,000 calls: linear work, the cap applied, relations merged per path', () => {
    const calls = [];
    for (let i = 0; i < 20_000; i++) calls.push({ tool_name: 'Edit', arguments: { file_path: `src/f${i}.ts` } });
    calls.push({ tool_name: 'Read', arguments: { file_path: 'src/f0.ts' } });
    const files = extractFiles(calls, { max: 40 });
    expect(files).toHaveLength(40);
    expect(files.every((f) => f.relation === 'modified')).toBe(true);
    expect(files[0]!.path).toBe('src/f0.ts');
  });

  it('a create of a path an earlier call created stays created; a create after an edit is an edit', () => {
    const files = extractFiles([
      { tool_name: 'str_replace_based_edit_tool', arguments: { command: 'create', path: 'a.ts' } },
      { tool_name: 'Edit', arguments: { file_path: 'b.ts' } },
      { tool_name: 'str_replace_based_edit_tool', arguments: { command: 'create', path: 'b.ts' } },
    ]);
    expect(files).toEqual([
      { path: 'a.ts', relation: 'created' },
      { path: 'b.ts', relation: 'modified' },
    ]);
  });
});
