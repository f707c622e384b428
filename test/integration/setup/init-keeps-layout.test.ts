// Bad input T01 (docs/bad-inputs.md).
// `gitmem init` in a folder that already holds memory keeps the layout recall detects there
// (an OpenClaw workspace, an Obsidian vault), or refuses a layout that would hide those files.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO, copyDir, git, runCli, requireBuiltCli } from '../../support/fixtures.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(dirname(d), { recursive: true, force: true });
});
beforeAll(() => {
  requireBuiltCli();
});

function corpus(name: string): string {
  const ws = copyDir(join(REPO, 'fixtures', 'corpora', name));
  made.push(ws);
  git(ws, 'init', '-q');
  return ws;
}

describe('gitmem init in an existing workspace', () => {
  it('keeps the detected openclaw layout, so the root MEMORY.md is still recalled', () => {
    const ws = corpus('openclaw-crontinel');
    const before = readFileSync(join(ws, 'MEMORY.md'));
    const init = runCli(['init', '--dir', ws, '--json']);
    expect(init.code).toBe(0);
    expect(init.json().layout).toBe('openclaw');
    expect(JSON.parse(readFileSync(join(ws, 'gitmem.config.json'), 'utf8')).layout).toBe('openclaw');
    expect(readFileSync(join(ws, 'MEMORY.md'))).toEqual(before);
    const r = runCli(['recall', 'stripe staging mode', '--dir', ws, '--json', '--mode', 'keyword']).json();
    expect(r.results.map((x: any) => x.path)).toContain('MEMORY.md');
    expect(
      runCli(['recall', 'dream', '--dir', ws, '--json', '--mode', 'keyword', '--kind', 'dreams']).json().results[0]
        .path,
    ).toBe('DREAMS.md');
  });

  it('keeps an Obsidian vault (plain layout) recallable', () => {
    const ws = corpus('obsidian-kepano');
    const init = runCli(['init', '--dir', ws, '--json']);
    expect(init.code).toBe(0);
    expect(init.json().layout).toBe('plain');
    const r = runCli(['recall', 'evergreen composable ideas', '--dir', ws, '--json', '--mode', 'keyword']).json();
    expect(r.results.map((x: any) => x.path)).toContain(
      'Notes/Evergreen notes turn ideas into objects that you can manipulate.md',
    );
  });

  it('refuses --layout default over an openclaw workspace and says which files it would hide', () => {
    const ws = corpus('openclaw-crontinel');
    const r = runCli(['init', '--layout', 'default', '--dir', ws]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already holds memory in the openclaw layout/);
    expect(r.stderr).toMatch(/MEMORY\.md/);
    expect(r.stderr).toMatch(/gitmem init/);
    expect(existsSync(join(ws, 'gitmem.config.json'))).toBe(false);
    expect(existsSync(join(ws, 'memory'))).toBe(false);
  });

  it('an empty folder still gets the default layout', () => {
    const ws = corpus('openclaw-crontinel');
    rmSync(ws, { recursive: true });
    const r = runCli(['init', '--dir', ws, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().layout).toBe('default');
    expect(existsSync(join(ws, 'memory', 'MEMORY.md'))).toBe(true);
  });
});
