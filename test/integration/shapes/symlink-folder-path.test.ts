// Bad input U53 (docs/bad-inputs.md): a symlinked folder inside the workspace, next to the folder it
// points to. The walk took whichever of the two the directory listing gave first (an order the file
// system picks, not the names), skipped the other as a "symlink loop", and so a note could be
// answered under the link on one machine and under its own path on another. Real files, real
// symlinks, the built CLI: each folder's own path is kept, every link to it is skipped with what it
// points to, a link that makes non-memory notes memory (a folder or one file) indexes them there, and a link to its
// own parent stays a loop. (A linked folder is reported once, as a folder: U65.)
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedFixture, runCli, noModelEnv } from '../../support/fixtures.js';

const root = committedFixture('demo');
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));
const env = noModelEnv(root);
const cli = (...args: string[]) => runCli([...args, '--dir', root], { env });
const note = (rel: string, token: string) => {
  mkdirSync(join(root, dirname(rel)), { recursive: true });
  writeFileSync(join(root, rel), `# ${token}\n\n- ${token} is written here\n`);
};
const recallPaths = (token: string) =>
  cli('--json', 'recall', token, '--mode', 'keyword')
    .json()
    .results.map((r: { path: string }) => r.path);

// Link names before and after their folder's name, so no listing order can put every folder first.
const PAIRS = [
  ['alpha', 'a-link'],
  ['bravo', 'z-link'],
  ['charlie', 'b-link'],
  ['delta', 'y-link'],
  ['echo', 'c-link'],
  ['foxtrot', 'x-link'],
] as const;

describe('a symlinked folder beside the folder it points to (U53)', () => {
  it('is indexed at the folder its own path names; the link is skipped and says where', () => {
    for (const [folder, link] of PAIRS) {
      note(`memory/notes/${folder}/n.md`, `zq${folder}token`);
      symlinkSync(folder, join(root, `memory/notes/${link}-${folder}`));
    }
    // Notes outside the memory folder, made memory by a link: indexed under the link.
    note('docs/shared-notes/s.md', 'zqsharedtoken');
    symlinkSync('../../docs/shared-notes', join(root, 'memory/notes/shared'));
    // The same for one file (a U39 link to markdown the walk takes but is not memory at its own path).
    note('docs/file-note.md', 'zqfilelinktoken');
    symlinkSync('../../docs/file-note.md', join(root, 'memory/notes/file-note.md'));
    // A link to its own parent folder.
    symlinkSync('..', join(root, 'memory/notes/up'));

    const idx = cli('index');
    expect(idx.code, idx.stderr).toBe(0);
    const said = idx.stderr + idx.stdout;
    for (const [folder, link] of PAIRS) {
      expect(recallPaths(`zq${folder}token`)).toEqual([`memory/notes/${folder}/n.md`]);
      expect(said).toContain(
        `skipped memory/notes/${link}-${folder}: symlink to memory/notes/${folder}, indexed there`,
      );
      expect(said).not.toContain(`skipped memory/notes/${link}-${folder}/`);
    }
    expect(said).not.toMatch(/skipped memory\/notes\/(alpha|bravo|charlie|delta|echo|foxtrot)\b/);
    expect(recallPaths('zqsharedtoken')).toEqual(['memory/notes/shared/s.md']);
    expect(recallPaths('zqfilelinktoken')).toEqual(['memory/notes/file-note.md']);
    expect(said).toContain('skipped memory/notes/up: symlink loop');

    // The same after a rebuild (a second walk of the same tree).
    expect(cli('index', '--rebuild').code).toBe(0);
    expect(recallPaths('zqcharlietoken')).toEqual(['memory/notes/charlie/n.md']);
  });
});
