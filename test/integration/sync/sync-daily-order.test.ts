// Bad input R34 (docs/bad-inputs.md): union-merged daily notes out of time order. REAL git: two
// clones of a bare remote, the built CLI's `sync`. Both clones append timestamped bullets to the same
// daily note; `merge=union` kept both sides' lines, ours first, so the merged note read 08:00, 10:00,
// 12:00, 09:00, 11:00. The sync merge now lists them in time order, equal times in the merged order,
// a bullet without a time kept after the bullet it followed, and both clones end with the same note.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, write } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const clones = useSyncClones();
const NOTE = 'memory/2026-11-20.md';

/** The bullets of `dir`'s copy of the note, one line each. */
const bullets = (dir: string) =>
  readFileSync(join(dir, NOTE), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('- '));

describe('sync merges daily notes in time order', { timeout: 180_000 }, () => {
  it('two clones append to the same daily note: the merged note lists the bullets by time', () => {
    const { a, b } = clones();
    write(a, NOTE, '# 2026-11-20\n\n- 08:00 standup notes\n');
    ok(sync(a));
    ok(sync(b));
    appendFileSync(
      join(a, NOTE),
      '- 09:00 ann: cache warmed\n  second line of ann\n- 11:00 ann: deploy\n- no time, about the deploy\n- 12:00 ann: same minute as ben\n',
    );
    appendFileSync(join(b, NOTE), '- 10:00 ben: review\n- 12:00 ben: same minute as ann\n- 12:30 ben: lunch\n');
    ok(sync(a));
    const merged = ok(sync(b)).json();
    expect(merged.strategy).toBe('merge');
    expect(bullets(b)).toEqual([
      '- 08:00 standup notes',
      '- 09:00 ann: cache warmed',
      '- 10:00 ben: review',
      '- 11:00 ann: deploy',
      '- no time, about the deploy',
      '- 12:00 ben: same minute as ann', // equal times: the union's order (ours, then theirs)
      '- 12:00 ann: same minute as ben',
      '- 12:30 ben: lunch',
    ]);
    const text = readFileSync(join(b, NOTE), 'utf8');
    expect(text).toContain('- 09:00 ann: cache warmed\n  second line of ann\n- 10:00');
    expect(git(b, 'status', '--porcelain')).toBe('');
    expect(git(b, 'show', `HEAD:${NOTE}`)).toBe(text);
    ok(sync(a));
    expect(readFileSync(join(a, NOTE), 'utf8')).toBe(text);
  });
});
