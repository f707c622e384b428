// Bad input U04 (docs/bad-inputs.md): `gitmem watch` started on a workspace whose chunks are not
// embedded yet. Real process, real model: it is `ready` (keyword recall) before the vectors are done,
// says on stderr that it embeds in the background (a note, then `gitmem: embed done/total`), and
// Ctrl-C (SIGINT) in the middle of that ends the process without leaving the index folder's
// write.lock behind (B41 in test/lsp/recall-during-embed checks what the catch-up keeps).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, git } from '../../support/fixtures.js';
import { workspace } from '../../support/watch.js';

const TOPICS = ['billing', 'webhooks', 'deploys', 'caching', 'search', 'auth', 'queues', 'logging'];

describe('gitmem watch while it embeds', { timeout: 180_000 }, () => {
  it('prints embedding progress on stderr and a Ctrl-C mid-embedding releases write.lock', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) {
      const t = TOPICS[i % TOPICS.length]!;
      files[`memory/entries/note-${i}.md`] =
        `# ${t} note ${i}\n\nThe ${t} service keeps rule number ${i}: check item ${i * 7} before step ${i * 3}.\n`;
    }
    const root = workspace(files, { model: { enabled: true } });
    git(root, 'init', '-q');
    try {
      const child = spawn(process.execPath, [CLI, 'watch', '--json', '--dir', root], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let stderr = '';
      let stdout = '';
      let check = () => undefined as void;
      child.stdout.on('data', (d) => {
        stdout += d;
        check();
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
        child.on('exit', (code, signal) => r({ code, signal })),
      );
      // Interrupt as soon as `ready` and the first progress line show: the embedding of the rest is under way.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready or progress line; stderr: ${stderr}`)), 150_000);
        check = () => {
          if (/^gitmem: embed \d+\/\d+$/m.test(stderr) && /"event":"ready"/.test(stdout)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stderr.on('data', (d) => {
          stderr += d;
          check();
        });
      });
      expect(stderr).toMatch(/^gitmem: note: embedding \d+ new or changed chunks…$/m);
      // Ready did not wait for the vectors: the reconciled files were still to embed then.
      expect(stdout).toMatch(/"event":"ready".*"vectorsPending":[1-9]/);
      child.kill('SIGINT');
      const end = await exited;
      // A clean stop that finishes within the grace period exits 0 (with a `stopped` line); one
      // still busy when it ends exits 130. Either way the process ends and the lock is released.
      expect(end.code === 0 || end.code === 130 || end.signal === 'SIGINT', JSON.stringify(end)).toBe(true);
      if (end.code === 0) expect(stdout).toMatch(/"event":"stopped"/);
      expect(existsSync(join(root, '.git', 'gitmem', 'write.lock'))).toBe(false);
    } finally {
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
