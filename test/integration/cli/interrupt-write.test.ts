// Bad input U22 (docs/bad-inputs.md): Ctrl-C during a one-shot command that writes git (sync,
// checkpoint, complete-task, …) killed the process where it stood, so the lock files it held stayed
// behind: gitmem's own `gitmem-checkpoint.lock`, and `<gitdir>/index.lock`, which makes the user's next
// `git commit` fail. The first SIGINT now lets the write in progress finish (the process holds no lock
// file any more) and exits 130. Deterministic: another process's `index.lock` makes the checkpoint wait
// while it holds its own lock, and the signal is sent once that lock exists. One workspace.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, git, tempDir, initRepoOnMain } from '../../support/fixtures.js';
import { untilInFolder } from '../../support/wait.js';

let root: string;
let ws: string;

beforeAll(() => {
  root = tempDir();
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'memory'), { recursive: true });
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- Deploys run from main.\n');
  initRepoOnMain(ws);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Ctrl-C during a checkpoint (U22)', { timeout: 60_000 }, () => {
  it('exits 130 with none of its lock files left; the other process’s index.lock is kept', async () => {
    const own = join(ws, '.git', 'gitmem-checkpoint.lock');
    const index = join(ws, '.git', 'index.lock');
    writeFileSync(index, 'held by another git\n');
    appendFileSync(join(ws, 'memory', 'MEMORY.md'), '- Staging deploys need a green build.\n');
    const child = spawn(process.execPath, [CLI, 'checkpoint', '--dir', ws], {
      env: { ...process.env, NO_COLOR: '1', GITMEM_NO_HOST: '1', GITMEM_MODEL_DIR: join(root, 'no-model') },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await untilInFolder(join(ws, '.git'), () => existsSync(own), 'the checkpoint lock', { stop: exited });
    expect(existsSync(own), 'the checkpoint ended before it took its lock').toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(existsSync(own)).toBe(false);
    expect(existsSync(index)).toBe(true);
    rmSync(index);
    // The user's git works right after, and the memory edit is still there to commit.
    expect(git(ws, 'status', '--porcelain')).toContain('memory/MEMORY.md');
    git(ws, 'commit', '-q', '-am', 'by hand');
  });
});
