// ACE executor: files and relations from common tool-call shapes, tags, the entry plan.
import { describe, expect, it } from 'vitest';
import { extractFiles } from '../../../src/ace/tool-files.js';
import { extractTags } from '../../../src/ace/task-tags.js';
import { normaliseToolPath } from '../../../src/ace/tool-paths.js';
import { planEntry } from '../../../src/ace/executor.js';
import { shellWords } from '../../../src/ace/shell-events.js';

describe('extractFiles', () => {
  it('reads Claude Code tool shapes with line ranges and keeps the strongest relation', () => {
    const files = extractFiles(
      [
        { tool_name: 'Read', arguments: { file_path: '/repo/src/db/pool.ts', offset: 10, limit: 33 } },
        { tool_name: 'Edit', arguments: { file_path: '/repo/src/db/pool.ts', old_string: 'a', new_string: 'b' } },
        { tool_name: 'Write', arguments: { file_path: '/repo/src/db/new.ts', content: 'x' } },
        { tool_name: 'Read', arguments: { file_path: '/repo/README.md' } },
        { tool_name: 'Write', arguments: { file_path: '/repo/README.md', content: 'y' } },
        {
          tool_name: 'Grep',
          arguments: { pattern: 'pool', path: 'src' },
          result: 'src/app.ts:4:import pool\nsrc/app.ts:9:pool.end()',
        },
        { tool_name: 'Read', arguments: { file_path: '/elsewhere/secret.txt' } },
      ],
      { cwd: '/repo' },
    );
    expect(files).toEqual([
      { path: 'src/db/pool.ts', relation: 'modified', lines: [10, 42] },
      { path: 'src/db/new.ts', relation: 'created' },
      { path: 'README.md', relation: 'modified' },
      { path: 'src/app.ts', relation: 'referenced', lines: [4, 9] },
    ]);
  });

  it('reads shell commands: rm, mv, sed -n ranges, sed -i, redirects, git rm, cat', () => {
    const files = extractFiles([
      { tool_name: 'Bash', arguments: { command: "sed -n '10,20p' src/a.ts && cat src/b.ts | grep x" } },
      { tool_name: 'Bash', arguments: { command: 'rm -f src/old.ts; git rm src/older.ts' } },
      { tool_name: 'bash', arguments: { command: 'mv src/c.ts src/d.ts' } },
      { tool_name: 'shell', arguments: { command: ['bash', '-lc', "sed -i 's/a/b/' src/e.ts"] } },
      { tool_name: 'Bash', arguments: { command: 'echo hi > notes/out.md 2>/dev/null' } },
      { tool_name: 'Bash', arguments: { command: 'npx vitest run test/unit/x.test.ts' } },
    ]);
    expect(files).toEqual([
      { path: 'src/a.ts', relation: 'read', lines: [10, 20] },
      { path: 'src/b.ts', relation: 'read' },
      { path: 'src/old.ts', relation: 'deleted' },
      { path: 'src/older.ts', relation: 'deleted' },
      { path: 'src/c.ts', relation: 'deleted' },
      { path: 'src/d.ts', relation: 'created' },
      { path: 'src/e.ts', relation: 'modified' },
      { path: 'notes/out.md', relation: 'created' },
      { path: 'test/unit/x.test.ts', relation: 'referenced' },
    ]);
  });

  it('reads editor tools, apply_patch, MCP-prefixed and string arguments', () => {
    const files = extractFiles([
      { tool_name: 'str_replace_based_edit_tool', arguments: { command: 'view', path: 'a.py', view_range: [3, 9] } },
      { tool_name: 'str_replace_based_edit_tool', arguments: { command: 'str_replace', path: 'a.py' } },
      {
        tool_name: 'apply_patch',
        arguments: {
          input:
            '*** Begin Patch\n*** Add File: b.py\n+x\n*** Delete File: c.py\n*** Update File: d.py\n@@\n-x\n+y\n*** End Patch',
        },
      },
      {
        tool_name: 'mcp__filesystem__read_file',
        arguments: JSON.stringify({ path: 'e.json', start_line: 2, end_line: 4 }),
      },
      { tool_name: 'read_file', arguments: { path: 'https://example.com/x.ts' } },
      { tool_name: 'list_dir', arguments: { path: 'src' } },
    ]);
    expect(files).toEqual([
      { path: 'a.py', relation: 'modified', lines: [3, 9] },
      { path: 'b.py', relation: 'created' },
      { path: 'c.py', relation: 'deleted' },
      { path: 'd.py', relation: 'modified' },
      { path: 'e.json', relation: 'read', lines: [2, 4] },
    ]);
  });

  it('B-ACE2 never throws on odd tool usage and drops paths that escape', () => {
    expect(extractFiles(undefined)).toEqual([]);
    expect(
      extractFiles([
        { tool_name: '', arguments: null },
        { tool_name: 'Read', arguments: 'not json' },
        { tool_name: 'Read', arguments: { file_path: '../x.ts' } },
      ] as never),
    ).toEqual([]);
    expect(normaliseToolPath('./src//a.ts')).toBe('src/a.ts');
    expect(normaliseToolPath('src/*.ts')).toBeUndefined();
    expect(normaliseToolPath('C:\\repo\\a.ts', 'C:/repo')).toBe('a.ts');
    expect(normaliseToolPath('node_modules/x/index.js')).toBeUndefined();
  });

  it('splits shell words with quotes and operators', () => {
    expect(shellWords(`a 'b c' "d \\"e\\"" && f>g; h | i`)).toEqual([
      ['a', 'b c', 'd "e"'],
      ['f', '>', 'g'],
      ['h'],
      ['i'],
    ]);
  });
});

describe('extractTags and planEntry', () => {
  it('tags from the caller, hashtags, vocabulary and known workspace tags', () => {
    const tags = extractTags(
      { goal: 'Fix the #flaky queue test', result: 'Jest fake timers froze BullMQ; Postgres was fine.', tags: ['Ops'] },
      { knownTags: ['shipments', 'queue', 'x'] },
    );
    expect(tags).toEqual(['ops', 'flaky', 'postgres', 'bullmq', 'jest', 'testing', 'queues', 'queue']);
  });

  it('plans a typed entry with front-matter fields, body sections and a dedupe text', () => {
    const plan = planEntry(
      {
        goal: 'Fix the login redirect loop',
        result: 'A stale cookie caused the loop; clearing it on reset fixed it.',
        feedback: 'Thanks',
        agent: 'codex',
        tool_usage: [{ tool_name: 'Edit', arguments: { file_path: 'src/auth/reset.ts' } }],
      },
      { now: new Date('2026-11-29T10:00:00.123Z') },
    );
    expect(plan.type).toBe('error_fix');
    expect(plan.baseId).toBe('2026-11-29-fix-the-login-redirect-loop');
    expect(plan.data).toMatchObject({
      type: 'error_fix',
      title: 'Fix the login redirect loop',
      files: [{ path: 'src/auth/reset.ts', relation: 'modified' }],
      created: '2026-11-29T10:00:00Z',
      source: { agent: 'codex', origin: 'complete-task' },
      status: 'active',
    });
    expect(plan.body).toContain('## Files\n\n- `src/auth/reset.ts` (modified)');
    expect(plan.dedupeText).toBe(
      'fix the login redirect loop a stale cookie caused the loop; clearing it on reset fixed it. thanks',
    );
  });
});
