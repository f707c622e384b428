// Bad input U70 (docs/bad-inputs.md): Ctrl-C during `gitmem index` before its embedding phase (reading
// the files, the keyword update, its save) was swallowed: the handler only aborted the embedding, so a
// first Ctrl-C did nothing and the build ran to its end and exited 0. Now the call ends as every
// writing command does, at the first moment it holds no lock file, with 130 (SIGINT) or 143 (SIGTERM),
// and the index on disk stays whole: the next `gitmem index` finishes it. Real CLI, real signals.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir, initRepoOnMain } from '../../support/fixtures.js';

let root: string;
let ws: string;
const FILES = 3000;

beforeAll(() => {
  root = tempDir();
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'memory', 'notes'), { recursive: true });
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- Deploys run from main.\n');
  for (let i = 0; i < FILES; i++)
    writeFileSync(
      join(ws, 'memory', 'notes', `n-${i}.md`),
      `# Note ${i}\n\n- word${i} appears in note ${i} about the staging queue\n- and a second line on retries ${i}\n`,
    );
  initRepoOnMain(ws);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The CLI's environment: no host, no model (the call never reaches an embedding phase). */
const env = () => ({ ...process.env, NO_COLOR: '1', GITMEM_NO_HOST: '1', GITMEM_MODEL_DIR: join(root, 'no-model') });

/** Run `index --rebuild`, send `sig` once it reports reading files; its exit code and stderr. */
async function interrupted(sig: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'index', '--rebuild', '--dir', ws], {
    env: env(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let sent = false;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr += d;
    if (!sent && /gitmem: read \d+\/\d+/.test(stderr)) {
      sent = true;
      child.kill(sig);
    }
  });
  return { code: await exited, stderr };
}

describe('Ctrl-C during gitmem index, before embedding (U70)', { timeout: 120_000 }, () => {
  it('SIGINT while the files are read: exit 130, no write.lock left, and the next index finishes the whole', async () => {
    const r = await interrupted('SIGINT');
    expect(r.stderr).toContain('interrupted before embedding');
    expect(r.code).toBe(130);
    expect(r.stderr).not.toMatch(/gitmem: read (\d+)\/\1\b/); // it stopped before reading them all
    expect(existsSync(join(ws, '.git', 'gitmem', 'write.lock'))).toBe(false);
    const next = spawnSync(process.execPath, [CLI, 'index', '--json', '--dir', ws], { env: env(), encoding: 'utf8' });
    expect(next.status).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ files: FILES + 1 });
    const hit = spawnSync(process.execPath, [CLI, 'recall', 'word2999', '--json', '--dir', ws], {
      env: env(),
      encoding: 'utf8',
    });
    expect(hit.status).toBe(0);
    expect(JSON.parse(hit.stdout).results[0].path).toBe('memory/notes/n-2999.md');
  });

  it('SIGTERM likewise: exit 143', async () => {
    const r = await interrupted('SIGTERM');
    expect(r.code).toBe(143);
    expect(existsSync(join(ws, '.git', 'gitmem', 'write.lock'))).toBe(false);
  });
});
