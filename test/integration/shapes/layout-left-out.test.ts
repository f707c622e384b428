// Bad input R29 (docs/bad-inputs.md): layout detection that hides most markdown and says nothing. A
// CLAUDE.md project with a `memory/` folder is detected as the default layout, which takes only the
// files under memory/: 1 of 17 markdown files. doctor (human and --json) and the first `index` say how
// many markdown files the layout leaves out and the one config line that takes them in; with that
// line, all 17 are memory and nothing is said. Real CLI over a real git work tree.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, noModelEnv, requireBuiltCli, runCli, tempDir, write } from '../../support/fixtures.js';

let root: string;
let ws: string;
beforeAll(() => {
  requireBuiltCli();
  root = tempDir();
  ws = `${root}/project`;
  write(ws, 'CLAUDE.md', '# Project rules\n\nUse pnpm.\n');
  write(ws, 'memory/MEMORY.md', '# Memory\n\n- the one memory file\n');
  write(ws, 'README.md', '# Readme\n');
  for (let i = 1; i <= 7; i++) write(ws, `docs/d${i}.md`, `# Doc ${i}\n`);
  for (let i = 1; i <= 7; i++) write(ws, `notes/n${i}.md`, `# Note ${i}\n`);
  write(ws, 'node_modules/pkg/README.md', '# not counted: an ignored folder\n');
  git(ws, 'init', '-q');
});
afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(['--dir', ws, ...args], { env: noModelEnv(root) });
const LINE =
  /16 other markdown files are not memory in the default layout \(CLAUDE\.md, README\.md, docs\/d1\.md, …\); to include them: "layout": "plain" in gitmem\.config\.json/;

describe('markdown the detected layout leaves out (R29)', () => {
  it('doctor says how many and how to include them', () => {
    const r = cli('doctor');
    expect(r.stdout).toMatch(/files {6}1 memory files/);
    expect(r.stdout).toMatch(LINE);
    const j = cli('doctor', '--json').json();
    expect(j.files.memory).toBe(1);
    expect(j.files.leftOut).toMatchObject({ count: 16, examples: ['CLAUDE.md', 'README.md', 'docs/d1.md'] });
  });

  it('the first index says it, the next one does not', () => {
    const first = cli('index');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(LINE);
    const again = cli('index');
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/other markdown/);
  });

  it('with the suggested line every markdown file is memory, and nothing is left out', () => {
    write(ws, 'gitmem.config.json', JSON.stringify({ version: 1, layout: 'plain' }));
    const j = cli('doctor', '--json').json();
    expect(j.files.memory).toBe(17);
    expect(j.files.leftOut.count).toBe(0);
    expect(cli('doctor').stdout).not.toMatch(/other markdown/);
  });
});
