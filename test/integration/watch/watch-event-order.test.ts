// Bad input B65 (docs/bad-inputs.md): `gitmem watch --json` reported an edit's vectors before the edit.
// The vectors of a small batch are embedded in the background and were often done before the batch's
// own `changes` event was fired, so a listener read `vectors: 1 embedded` and only then `changes`
// (a status line said vectors were ready for an update it had not announced yet). Now an update's
// event always comes first. Real `gitmem watch` process, real file edits, the shipped model.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, git } from '../../support/fixtures.js';
import { startWatchJson } from '../../support/watch-process.js';
import { modelEnv } from '../../support/model.js';

const root = copyFixture('demo');
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('B65: watch --json reports an update before its vectors', () => {
  it('every vectors event with embedded chunks follows the changes event of its edit', async () => {
    git(root, 'init', '-q');
    const w = startWatchJson(root, modelEnv());
    child = w.child;
    const { lines } = w;
    await w.next((l) => l.event === 'ready', 60_000);
    // The start-up's own vectors (the reconcile's) settle first.
    if (!lines.some((l) => l.reason === 'vectors')) await w.next((l) => l.reason === 'vectors', 60_000);
    for (const [k, word] of ['zebra', 'quokka', 'narwhal'].entries()) {
      const from = lines.length;
      appendFileSync(join(root, 'memory', 'MEMORY.md'), `- edit ${k}: a note about the ${word}\n`);
      await w.next((l) => l.reason === 'vectors' && l.embedded > 0, 60_000);
      const seen = lines.slice(from).map((l) => l.reason);
      const changes = seen.indexOf('changes');
      const vectors = lines.slice(from).findIndex((l) => l.reason === 'vectors' && l.embedded > 0);
      expect(changes, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(changes, JSON.stringify(seen)).toBeLessThan(vectors);
    }
  });
});
