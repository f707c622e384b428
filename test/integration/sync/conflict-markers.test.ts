// Bad input U43 (docs/bad-inputs.md): a plain `git merge` (no gitmem driver registered) that
// conflicts in MEMORY.md leaves `<<<<<<<` / `=======` / `>>>>>>>` markers in the file. `gitmem
// validate` said "No problems found" and recall served "- base line <<<<<<< HEAD - main line" as
// memory; once the user `git add`s the file, nothing stops the markers being committed. A real git
// repository, a real conflicting merge, the real CLI: validate reports the block as an error
// (exit 1) at its lines, and the same markers inside a fenced code block are not reported. U46:
// checkpoint refuses to commit such a file unless --force.
import { mkdirSync, writeFileSync, appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDir, initRepoOnMain } from '../../support/fixtures.js';

type Diagnostic = { path: string; code: string; severity: string; range: { start: { line: number } } };
const CODE = 'memory.merge.conflict-markers';

describe('conflict markers left in memory by a git merge (U43)', { timeout: 60_000 }, () => {
  it('U43: a real conflicting merge (diff3 style): validate reports the block as an error; a fenced example is not reported', () => {
    const root = tempDir();
    mkdirSync(join(root, 'memory'));
    const memory = join(root, 'memory', 'MEMORY.md');
    writeFileSync(memory, '# Memory\n\n## Decisions\n- The pool is capped at 20 connections.\n');
    writeFileSync(
      join(root, 'memory', 'git-notes.md'),
      '# Git notes\n\nA conflict looks like this:\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n```\n',
    );
    initRepoOnMain(root, 'base');
    git(root, 'checkout', '-q', '-b', 'other');
    appendFileSync(memory, '- Retries back off from 2 s.\n');
    git(root, 'commit', '-q', '-am', 'other');
    git(root, 'checkout', '-q', 'main');
    appendFileSync(memory, '- Retries back off from 5 s.\n');
    git(root, 'commit', '-q', '-am', 'main');
    // diff3 style, so the block also holds the base section (`||||||| …`).
    expect(() => git(root, '-c', 'merge.conflictStyle=diff3', 'merge', 'other')).toThrow();
    expect(readFileSync(memory, 'utf8')).toMatch(/^<<<<<<< HEAD\n[^]*^\|{7} [^]*^=======\n[^]*^>>>>>>> other$/m);

    const r = runCli(['validate', '--dir', root, '--json'], { env: { GITMEM_NO_HOST: '1' } });
    expect(r.code, r.stderr).toBe(1);
    const found = (r.json().diagnostics as Diagnostic[]).filter((d) => d.code === CODE);
    expect(found.map((d) => [d.path, d.severity, d.range.start.line])).toEqual([['memory/MEMORY.md', 'error', 4]]);

    const human = runCli(['validate', '--dir', root], { env: { GITMEM_NO_HOST: '1' } });
    expect(human.stdout).toMatch(/memory\/MEMORY\.md:5:1 error unresolved merge conflict \(lines 5-10\)/);
  });

  // U46: `git stash pop` over a conflicting commit leaves markers with no merge in progress, so
  // `gitmem checkpoint` (and so sync) committed them and every clone got them.
  it('U46: checkpoint refuses a memory file a stash pop left with markers; --force commits it', () => {
    const root = tempDir();
    mkdirSync(join(root, 'memory'));
    const memory = join(root, 'memory', 'MEMORY.md');
    writeFileSync(memory, '# Memory\n\n- The pool is capped at 20 connections.\n');
    initRepoOnMain(root, 'base');
    writeFileSync(memory, '# Memory\n\n- The pool is capped at 30 connections.\n');
    git(root, 'stash', '-q');
    writeFileSync(memory, '# Memory\n\n- The pool is capped at 25 connections.\n');
    git(root, 'commit', '-q', '-am', 'other');
    expect(() => git(root, 'stash', 'pop')).toThrow();
    expect(readFileSync(memory, 'utf8')).toMatch(/^<<<<<<< /m);
    const head = git(root, 'rev-parse', 'HEAD').trim();

    const r = runCli(['checkpoint', '--dir', root, '--json'], { env: { GITMEM_NO_HOST: '1' } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'git.conflict-markers', data: { files: ['memory/MEMORY.md:3'] } });
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(head);

    const forced = runCli(['checkpoint', '--dir', root, '--force'], { env: { GITMEM_NO_HOST: '1' } });
    expect(forced.code, forced.stderr).toBe(0);
    expect(git(root, 'show', 'HEAD:memory/MEMORY.md')).toMatch(/^<<<<<<< /m);
  });
});
