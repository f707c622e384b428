// Bad input R55 (docs/bad-inputs.md): bytes of a memory file that are not valid UTF-8 (a Latin-1
// "é", 0xE9) were replaced with U+FFFD (EF BF BD) by every write to the file, exit 0: `gitmem
// append` rewrote the whole note, `gitmem mv` the files whose links it updated, `state set` the
// working state, `state new` the daily note it archives to. Now an append adds its bytes after the
// file's own, and a write that must rewrite a file's text refuses one that is not valid UTF-8, naming
// the file and the byte (exit 1, nothing written). Real CLI from dist/, real git repository.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bareWorkspace, git, initRepoOnMain, noModelEnv, runCli, write } from '../../support/fixtures.js';

const roots: string[] = [];
afterEach(() => {
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `- 09:00 Met René at the café` with both é as the single Latin-1 byte 0xE9. */
const LATIN1_NOTE = Buffer.concat([
  Buffer.from('# day\n\n- 09:00 Met Ren'),
  Buffer.from([0xe9]),
  Buffer.from(' at the caf'),
  Buffer.from([0xe9]),
  Buffer.from(', see [notes](entries/a.md)\n'),
]);
/** Offset of the first 0xE9 in {@link LATIN1_NOTE}. */
const FIRST_BAD = LATIN1_NOTE.indexOf(0xe9);

function repo(): { ws: string; env: Record<string, string> } {
  const { root, ws } = bareWorkspace('entries', { model: { enabled: false } });
  roots.push(root);
  write(ws, 'memory/MEMORY.md', '# Memory\n');
  write(ws, 'memory/entries/a.md', '---\nid: a\ntype: fact\n---\n# A\n\nThe notes of the day.\n');
  writeFileSync(join(ws, 'memory/2026-12-07.md'), LATIN1_NOTE);
  initRepoOnMain(ws);
  return { ws, env: noModelEnv(ws) };
}

const bytesOf = (ws: string, rel: string) => readFileSync(join(ws, rel));

describe('writes to a file that is not valid UTF-8 (R55)', { timeout: 120_000 }, () => {
  it('gitmem append keeps the existing bytes exactly and adds the bullet after them', () => {
    const { ws, env } = repo();
    const r = runCli(['append', 'new line', '--date', '2026-12-07', '--dir', ws], { env });
    expect(r.code, r.stderr).toBe(0);
    const after = bytesOf(ws, 'memory/2026-12-07.md');
    expect(after.subarray(0, LATIN1_NOTE.length).equals(LATIN1_NOTE)).toBe(true);
    expect(after.subarray(LATIN1_NOTE.length).toString('utf8')).toMatch(/^- \d\d:\d\d new line\n$/);
    expect(after.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(false);
    // git sees one added line, no rewritten one.
    const diff = git(ws, 'diff', '--numstat', '--', 'memory/2026-12-07.md');
    expect(diff.trim()).toBe('1\t0\tmemory/2026-12-07.md');
  });

  it('gitmem mv refuses to rewrite the links of a file that is not UTF-8: exit 1, file and byte named, nothing moved', () => {
    const { ws, env } = repo();
    const r = runCli(['mv', 'memory/entries/a.md', 'memory/entries/b.md', '--dir', ws], { env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('memory/2026-12-07.md');
    expect(r.stderr).toContain(`byte ${FIRST_BAD}`);
    expect(r.stderr).toContain('not valid UTF-8');
    expect(bytesOf(ws, 'memory/2026-12-07.md').equals(LATIN1_NOTE)).toBe(true);
    expect(git(ws, 'status', '--porcelain')).toBe('');
    const json = runCli(['mv', 'memory/entries/a.md', 'memory/entries/b.md', '--json', '--dir', ws], { env });
    expect(json.code).toBe(1);
    expect(json.json().error).toMatchObject({ code: 'fs.not-utf8' });
    expect(git(ws, 'status', '--porcelain')).toBe('');
  });

  it('gitmem state new archives into a daily note that is not UTF-8 keeping its bytes, then resets the state', () => {
    const { ws, env } = repo();
    // The day the CLI archives to (UTC here), and the days around it, hold the Latin-1 note.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const d of [day(-1), day(0), day(1)]) writeFileSync(join(ws, `memory/${d}.md`), LATIN1_NOTE);
    const utc = { ...env, TZ: 'UTC' };
    expect(runCli(['state', 'set', '--objective', 'Ship the menu', '--dir', ws], { env: utc }).code).toBe(0);
    const r = runCli(['state', 'new', '--json', '--dir', ws], { env: utc });
    expect(r.code, r.stderr).toBe(0);
    const archived = r.json().archived.path as string;
    expect([day(-1), day(0), day(1)].map((d) => `memory/${d}.md`)).toContain(archived);
    const after = bytesOf(ws, archived);
    expect(after.subarray(0, LATIN1_NOTE.length).equals(LATIN1_NOTE)).toBe(true);
    expect(after.subarray(LATIN1_NOTE.length).toString('utf8')).toContain('Ship the menu');
    expect(after.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(false);
  });

  it('gitmem state set refuses to rewrite a CURRENT_STATE.md that is not UTF-8: exit 1, nothing written', () => {
    const { ws, env } = repo();
    const state = Buffer.concat([
      Buffer.from('# Current state\n\n## Objective\n\nShip the caf'),
      Buffer.from([0xe9]),
      Buffer.from(' menu\n'),
    ]);
    writeFileSync(join(ws, 'memory/CURRENT_STATE.md'), state);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'state');
    const r = runCli(['state', 'set', '--step', 'write the tests', '--dir', ws], { env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('memory/CURRENT_STATE.md');
    expect(r.stderr).toContain(`byte ${state.indexOf(0xe9)}`);
    expect(bytesOf(ws, 'memory/CURRENT_STATE.md').equals(state)).toBe(true);
    expect(git(ws, 'status', '--porcelain')).toBe('');
  });
});
