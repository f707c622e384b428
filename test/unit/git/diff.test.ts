// Memory diff: line diff, entries added/removed/changed with fields and body, CURRENT_STATE
// sections, daily-note lines added, moves; the parser is injected (git/ never imports parse/).
import { describe, expect, it } from 'vitest';
import { lineDiff, memoryDiff, type DiffParser } from '../../../src/git/diff.js';

/** A tiny stand-in parser: `key: value` front-matter lines, `## ` sections. */
const parse: DiffParser = (path, text) => {
  const kind = path.includes('entries/')
    ? 'entry'
    : path.includes('playbook/')
      ? 'playbook'
      : /\d{4}-\d{2}-\d{2}\.md$/.test(path)
        ? 'daily'
        : path.endsWith('CURRENT_STATE.md')
          ? 'current_state'
          : path.endsWith('.md')
            ? 'long_term'
            : '';
  if (!kind) return undefined;
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  const data: Record<string, unknown> = {};
  if (m)
    for (const l of m[1]!.split('\n')) {
      const [k, ...v] = l.split(':');
      data[k!.trim()] = v.join(':').trim();
    }
  const body = m ? m[2]! : text;
  const sections: Record<string, string> = {};
  let cur: string | undefined;
  for (const l of body.split('\n')) {
    const h = /^## (.+)$/.exec(l);
    if (h) {
      cur = h[1]!;
      sections[cur] = '';
    } else if (cur) sections[cur] += `${l}\n`;
  }
  return {
    kind,
    ...(data.id ? { id: String(data.id) } : {}),
    ...(m ? { data } : {}),
    body,
    ...(kind === 'current_state' ? { sections } : {}),
  };
};

describe('lineDiff', () => {
  it('finds added lines with their numbers in the newer text', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nx\nb\nc\ny\n')).toEqual({
      added: [
        { line: 2, text: 'x' },
        { line: 5, text: 'y' },
      ],
      removed: 0,
    });
    expect(lineDiff('a\nb\n', 'a\n')).toEqual({ added: [], removed: 1 });
    expect(lineDiff('', 'a\n')).toEqual({ added: [{ line: 1, text: 'a' }], removed: 0 });
    expect(lineDiff('a\r\nb\r\n', 'a\nb\n')).toEqual({ added: [], removed: 0 });
  });
  it('handles moved and repeated lines', () => {
    expect(lineDiff('- x\n- x\n- y\n', '- y\n- x\n- x\n- x\n').added.length).toBe(2);
  });
});

describe('memoryDiff', () => {
  const before = new Map([
    ['memory/entries/pool.md', '---\nid: pool\ntype: learning\ntags: [db]\n---\nPool size 10.\n'],
    ['memory/entries/gone.md', '---\nid: gone\ntype: warning\n---\nOld.\n'],
    ['memory/entries/moved.md', '---\nid: moved\ntype: decision\n---\nSame.\n'],
    ['memory/2026-11-30.md', '# 2026-11-30\n\n- 09:00 started\n'],
    ['memory/CURRENT_STATE.md', '# Current State\n\n## Objective\nship git\n## Next Action\ntests\n'],
    ['memory/MEMORY.md', '# Memory\n'],
  ]);
  const after = new Map([
    ['memory/entries/pool.md', '---\nid: pool\ntype: decision\ntags: [db]\n---\nPool size 10.\n'],
    ['memory/entries/new.md', '---\nid: new\ntype: learning\n---\nNew.\n'],
    ['memory/entries/sub/moved.md', '---\nid: moved\ntype: decision\n---\nSame.\n'],
    ['memory/2026-11-30.md', '# 2026-11-30\n\n- 09:00 started\n- 10:00 [decision] use isomorphic-git\n'],
    ['memory/CURRENT_STATE.md', '# Current State\n\n## Objective\nship git\n## Next Action\nwire the CLI\n'],
    ['memory/MEMORY.md', '# Memory\r\n'],
  ]);
  const d = memoryDiff(before, after, parse);
  const by = (p: string) => d.changes.find((c) => c.path === p)!;

  it('summarises', () => {
    expect(d.summary).toEqual({ added: 1, removed: 1, changed: 4 });
    expect(d.changes.map((c) => c.path)).toEqual([
      'memory/2026-11-30.md',
      'memory/CURRENT_STATE.md',
      'memory/entries/gone.md',
      'memory/entries/new.md',
      'memory/entries/pool.md',
      'memory/entries/sub/moved.md',
    ]);
  });
  it('names changed front-matter fields and says whether the body changed', () => {
    expect(by('memory/entries/pool.md')).toMatchObject({
      change: 'changed',
      id: 'pool',
      kind: 'entry',
      bodyChanged: false,
      fields: [{ key: 'type', before: 'learning', after: 'decision' }],
    });
  });
  it('reports added and removed entries', () => {
    expect(by('memory/entries/new.md')).toMatchObject({ change: 'added', id: 'new' });
    expect(by('memory/entries/gone.md')).toMatchObject({ change: 'removed', id: 'gone' });
  });
  it('lists daily-note lines added', () => {
    expect(by('memory/2026-11-30.md').linesAdded).toEqual([{ line: 4, text: '- 10:00 [decision] use isomorphic-git' }]);
  });
  it('reports CURRENT_STATE section changes', () => {
    expect(
      by('memory/CURRENT_STATE.md').sections.map((x) => ({ ...x, before: x.before?.trim(), after: x.after?.trim() })),
    ).toEqual([{ name: 'Next Action', before: 'tests', after: 'wire the CLI' }]);
  });
  it('treats a same-id file in another place as a move, and ignores line-ending-only changes', () => {
    expect(by('memory/entries/sub/moved.md')).toMatchObject({
      change: 'changed',
      renamedFrom: 'memory/entries/moved.md',
      bodyChanged: false,
      fields: [],
    });
    expect(d.changes.some((c) => c.path === 'memory/MEMORY.md')).toBe(false);
  });
  it('leaves out what the parser says is not memory', () => {
    expect(memoryDiff(new Map(), new Map([['notes.txt', 'x']]), parse).changes).toEqual([]);
  });
});
