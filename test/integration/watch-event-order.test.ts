// Bad input B65 (docs/bad-inputs.md): `gitmem watch --json` reported an edit's vectors before the edit.
// The vectors of a small batch are embedded in the background and were often done before the batch's
// own `changes` event was fired, so a listener read `vectors: 1 embedded` and only then `changes`
// (a status line said vectors were ready for an update it had not announced yet). Now an update's
// event always comes first. Real `gitmem watch` process, real file edits, the shipped model.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, copyFixture, git } from '../support/fixtures.js';
import { modelEnv } from '../support/model.js';

const root = copyFixture('demo');
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('B65: watch --json reports an update before its vectors', () => {
  it('every vectors event with embedded chunks follows the changes event of its edit', async () => {
    git(root, 'init', '-q');
    const lines: any[] = [];
    child = spawn(process.execPath, [CLI, 'watch', '--dir', root, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...modelEnv() },
    });
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('{')) lines.push(JSON.parse(line));
      }
    });
    const until = async (what: string, ok: () => boolean, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(lines)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until('ready', () => lines.some((l) => l.event === 'ready'));
    // The start-up's own vectors (the reconcile's) settle first.
    await until('start-up vectors', () => lines.some((l) => l.reason === 'vectors'));
    const embeddedAfter = (from: number) => lines.slice(from).filter((l) => l.reason === 'vectors' && l.embedded > 0);
    for (const [k, word] of ['zebra', 'quokka', 'narwhal'].entries()) {
      const from = lines.length;
      appendFileSync(join(root, 'memory', 'MEMORY.md'), `- edit ${k}: a note about the ${word}\n`);
      await until(`the vectors of edit ${k}`, () => embeddedAfter(from).length > 0);
      const seen = lines.slice(from).map((l) => l.reason);
      const changes = seen.indexOf('changes');
      const vectors = lines.slice(from).findIndex((l) => l.reason === 'vectors' && l.embedded > 0);
      expect(changes, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(changes, JSON.stringify(seen)).toBeLessThan(vectors);
    }
  });
});
