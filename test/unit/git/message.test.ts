// Checkpoint messages: summary + Memory-* trailers, and reading them back (also from foreign commits).
import { describe, expect, it } from 'vitest';
import { buildMessage, defaultSummary, parseMessage } from '../../../src/git/message.js';

describe('buildMessage / parseMessage', () => {
  it('writes one trailer group per change and reads it back', () => {
    const changes = [
      { op: 'add' as const, path: 'memory/entries/pool.md', kind: 'entry', id: 'pool' },
      { op: 'update' as const, path: 'memory/2026-11-30.md', kind: 'daily' },
      { op: 'delete' as const, path: 'memory/playbook/old.md', kind: 'playbook', id: 'old' },
    ];
    const msg = buildMessage({
      message: 'memory: task T-12\n\nlonger explanation',
      reason: 'complete-task\nT-12',
      changes,
    });
    expect(msg).toBe(
      [
        'memory: task T-12',
        '',
        'longer explanation',
        '',
        'Memory-Op: add',
        'Memory-Kind: entry',
        'Memory-Id: pool',
        'Memory-Path: memory/entries/pool.md',
        'Memory-Op: update',
        'Memory-Kind: daily',
        'Memory-Path: memory/2026-11-30.md',
        'Memory-Op: delete',
        'Memory-Kind: playbook',
        'Memory-Id: old',
        'Memory-Path: memory/playbook/old.md',
        'Memory-Reason: complete-task T-12',
        '',
      ].join('\n'),
    );
    const parsed = parseMessage(msg);
    expect(parsed.summary).toBe('memory: task T-12');
    expect(parsed.body).toBe('longer explanation');
    expect(parsed.changes).toEqual(changes);
    expect(parsed.reason).toBe('complete-task T-12');
  });

  it('summarises when no message is given', () => {
    expect(defaultSummary([{ op: 'add', path: 'memory/entries/x.md', kind: 'entry', id: 'x' }])).toBe(
      'memory: add entry x',
    );
    expect(defaultSummary([{ op: 'update', path: 'memory/CURRENT_STATE.md', kind: 'current_state' }])).toBe(
      'memory: update current state memory/CURRENT_STATE.md',
    );
    expect(
      defaultSummary([
        { op: 'add', path: 'a.md' },
        { op: 'add', path: 'b.md' },
        { op: 'delete', path: 'c.md' },
      ]),
    ).toBe('memory: 3 files (2 added, 1 deleted)');
    expect(buildMessage({ changes: [{ op: 'add', path: 'a.md' }] }).split('\n')[0]).toBe('memory: add a.md');
  });

  it('caps the trailer groups of a bulk change', () => {
    const many = Array.from({ length: 105 }, (_, i) => ({ op: 'add' as const, path: `m/${i}.md` }));
    const p = parseMessage(buildMessage({ changes: many }));
    expect(p.changes.length).toBe(100);
    expect(p.trailers.at(-1)).toEqual({ key: 'Memory-More', value: '5' });
  });

  it('reads commits gitmem did not write', () => {
    expect(parseMessage('fix: thing\n\nbody text\n')).toEqual({
      summary: 'fix: thing',
      body: 'body text',
      trailers: [],
      changes: [],
    });
    const p = parseMessage('feat: x\n\nSigned-off-by: A <a@b>\nMemory-Op: ADD\nMemory-Id: hand-written\n');
    expect(p.trailers.map((t) => t.key)).toEqual(['Signed-off-by', 'Memory-Op', 'Memory-Id']);
    expect(p.changes).toEqual([{ op: 'add', path: '', id: 'hand-written' }]);
    expect(parseMessage('only a summary').body).toBe('');
    expect(parseMessage('').summary).toBe('');
  });

  it('does not take a body paragraph with a colon for trailers', () => {
    const p = parseMessage('summary\n\nNote: this is prose\nand more prose\n');
    expect(p.trailers).toEqual([]);
    expect(p.body).toBe('Note: this is prose\nand more prose');
  });

  it('B57: control characters from names never reach the message raw; paths and ids read back exactly', () => {
    const evil = 'memory/entries/evil\u001b[2J\u0007\u009b\u202e.md';
    const changes = [
      { op: 'add' as const, path: evil, kind: 'entry', id: 'ok-id' },
      { op: 'update' as const, path: '"quoted".md' },
      { op: 'update' as const, path: 'memory/plain.md' },
    ];
    const msg = buildMessage({ message: 'memory: title \u001b]0;pwned\u0007 here', reason: 'why\u001b[31m', changes });
    // eslint-disable-next-line no-control-regex -- asserting that no control character is left
    expect(msg).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(msg).toContain('Memory-Path: "memory/entries/evil\\u001b[2J\\u0007\\u009b\\u202e.md"');
    expect(msg).toContain('Memory-Path: memory/plain.md');
    expect(msg.split('\n')[0]).toBe('memory: title \u241b]0;pwned\u2407 here');
    expect(parseMessage(msg).changes.map((c) => c.path)).toEqual([evil, '"quoted".md', 'memory/plain.md']);
    expect(parseMessage(msg).reason).toBe('why\u241b[31m');
    // The default summary names the file the same way.
    const one = buildMessage({ changes: [{ op: 'add', path: evil }] });
    expect(one.split('\n')[0]).toBe(`memory: add "memory/entries/evil\\u001b[2J\\u0007\\u009b\\u202e.md"`);
  });
});
