// Bad input R50 (docs/bad-inputs.md).
// `gitmem init` in a code repository whose only markdown is the project's own (README, docs,
// CHANGELOG) chose the plain layout, and checkpoints then committed the user's edits to those files.
// Detection now picks `plain` only for notes (a notes app's vault, daily notes, typed entries, a
// memory bank), and init says which layout and why.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, noModelEnv, requireBuiltCli, runCli, tempDir, write } from '../../support/fixtures.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(dirname(d), { recursive: true, force: true });
});
beforeAll(() => {
  requireBuiltCli();
});

/** A git repository holding `files` (path → text), nothing committed. */
function repo(files: Record<string, string>): string {
  const ws = join(tempDir(), 'p');
  made.push(ws);
  for (const [p, t] of Object.entries(files)) write(ws, p, t);
  git(ws, 'init', '-q', '-b', 'main');
  return ws;
}

function init(ws: string, ...args: string[]) {
  return runCli(['init', '--dir', ws, ...args], { env: noModelEnv(ws) });
}

describe('gitmem init in a code repository', () => {
  it('picks default for a README and docs, says why, and a checkpoint leaves the README and docs edits alone', () => {
    const ws = repo({ 'README.md': '# P\n', 'docs/api.md': '# API\n' });
    const r = init(ws);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Workspace ready \(default layout\)/);
    expect(r.stdout).toMatch(/no memory files found/);
    expect(r.stdout).toMatch(/--layout/);
    expect(existsSync(join(ws, 'memory', 'MEMORY.md'))).toBe(true);
    expect(existsSync(join(ws, 'MEMORY.md'))).toBe(false);
    expect(JSON.parse(readFileSync(join(ws, 'gitmem.config.json'), 'utf8')).layout).toBe('default');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'base');
    write(ws, 'README.md', '# P\nWIP\n');
    write(ws, 'docs/api.md', '# API\ndraft\n');
    const c = runCli(['checkpoint', '-m', 'memory: end of session', '--dir', ws], { env: noModelEnv(ws) });
    expect(c.code, c.stderr).toBe(0);
    expect(git(ws, 'log', '--format=%s')).toBe('base\n');
    expect(git(ws, 'status', '--short')).toBe(' M README.md\n M docs/api.md\n');
  });

  it('a changelog, a dated blog post and docs with their own front-matter are not notes either', () => {
    const ws = repo({
      'README.md': '# P\n',
      'CHANGELOG.md': '# Changelog\n\n## 1.0.0\n',
      'CONTRIBUTING.md': '# Contributing\n',
      '_posts/2024-01-05-hello.md': '---\ntitle: Hello\n---\nA post.\n',
      'docs/adr/0001-use-postgres.md': '---\ntype: adr\nstatus: accepted\n---\n# Use Postgres\n',
    });
    const r = init(ws, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().layout).toBe('default');
    expect(r.json().layoutSource).toBe('detected');
  });
});

describe('gitmem init in a folder of notes still picks plain, and says what it found', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'a daily note',
      { 'README.md': '# Notes\n', 'journal/2024-03-01.md': '- met Ana\n' },
      /daily note \(journal\/2024-03-01\.md\)/,
    ],
    [
      'a typed entry',
      { 'README.md': '# P\n', 'notes/db.md': '---\nid: db\ntype: decision\n---\nWe use Postgres.\n' },
      /typed entry \(notes\/db\.md, type decision\)/,
    ],
    ['an Obsidian vault', { '.obsidian/app.json': '{}\n', 'Ideas.md': '# Ideas\n' }, /\.obsidian/],
    [
      'a Cline memory bank',
      { 'projectbrief.md': '# Brief\n', 'README.md': '# P\n' },
      /memory-bank file \(projectbrief\.md\)/,
    ],
  ];
  for (const [name, files, reason] of cases) {
    it(name, () => {
      const ws = repo(files);
      const r = init(ws, '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().layout).toBe('plain');
      expect(r.json().layoutReason).toMatch(reason);
      expect(existsSync(join(ws, 'MEMORY.md'))).toBe(true);
    });
  }

  it('--layout plain still makes a project repository plain', () => {
    const ws = repo({ 'README.md': '# P\n' });
    const r = init(ws, '--layout', 'plain', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().layout).toBe('plain');
  });
});
