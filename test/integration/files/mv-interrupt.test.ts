// Bad input B53 (docs/bad-inputs.md): Ctrl-C during `gitmem mv` of a folder. U22's handler ends a
// writing command between two writes, and for mv that is between two renames: a folder of 3,000
// notes was left with 1,580 files in the old folder and 1,420 in the new one, hundreds of relative
// links broken, and nothing printed. The move is now one unit: the first SIGINT waits for every file
// to be moved and every link rewritten, says so on stderr, then exits 130.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git, runCli, bareWorkspace } from '../../support/fixtures.js';
import { untilInFolder } from '../../support/wait.js';

const N = 2500;
let root: string;
let ws: string;

beforeAll(() => {
  ({ root, ws } = bareWorkspace('topics'));
  for (let i = 0; i < N; i++)
    writeFileSync(join(ws, 'memory', 'topics', `t${i}.md`), `# t${i}\n\nnext: [t](t${(i + 1) % N}.md)\n`);
  const index = Array.from({ length: N / 5 }, (_, i) => `- [t${i * 5}](topics/t${i * 5}.md)\n`).join('');
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), `# Memory\n\n${index}`);
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'notes');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const count = (dir: string) => (existsSync(dir) ? readdirSync(dir).length : 0);

describe('Ctrl-C during a folder move (B53)', { timeout: 180_000 }, () => {
  it('waits for the whole move, then exits 130 with every file moved and every link sound', async () => {
    const child = spawn(process.execPath, [CLI, 'mv', 'memory/topics', 'memory/t2', '--dir', ws, '--no-host'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The signal lands once the first file has reached the new folder: in the middle of the move.
    // File events tell when: the new folder appears in memory/, then the first file in it.
    const target = join(ws, 'memory', 't2');
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    await untilInFolder(join(ws, 'memory'), () => existsSync(target), 'the new folder', { stop: exited });
    if (!ended()) await untilInFolder(target, () => count(target) > 0, 'the first moved file', { stop: exited });
    const sent = !ended();
    if (sent) child.kill('SIGINT');
    const code = await exited;
    expect(sent, 'the move ended before the signal could be sent').toBe(true);
    expect(code, stderr).toBe(130);
    expect(count(join(ws, 'memory', 'topics'))).toBe(0);
    expect(count(join(ws, 'memory', 't2'))).toBe(N);
    expect(stderr).toMatch(/finishing the move/);
    const v = runCli(['validate', '--dir', ws, '--json']);
    const unresolved = (v.json().diagnostics as { code: string }[]).filter((d) => d.code === 'memory.link.unresolved');
    expect(unresolved).toEqual([]);
  });
});
