// Bad input U08 (docs/bad-inputs.md): embedding that runs without a word. Real processes, real
// model: a `gitmem watch` whose catch-up or edit embeds a single group (at most 32 chunks) says so on
// stderr, and a first `recall` that embeds more than 16 chunks before answering says so too (the
// note's check looked for a count no report ever has, so it never printed).
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CLI, git, runCli } from '../../support/fixtures.js';
import { workspace } from '../../support/watch.js';

const NOTE = /^gitmem: note: embedding \d+ new or changed chunks/gm;

function notes(files: number, tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < files; i++)
    out[`memory/entries/${tag}-${i}.md`] = `# ${tag} ${i}\n\nRule ${i} of the ${tag} service: check item ${i * 7}.\n`;
  return out;
}

/**
 * Resolve once `test` holds for the text gathered so far from `stream` (checked now and on each of
 * its 'data' events); reject after `ms`.
 */
function until(
  stream: Readable,
  get: () => string,
  test: (s: string) => boolean,
  ms: number,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      stream.off('data', check);
      if (error) reject(error);
      else resolve();
    };
    // Registered after the listener that gathers the text, so `get()` already holds this chunk.
    const check = () => {
      if (test(get())) done();
    };
    const timer = setTimeout(() => done(new Error(`${what}; got: ${get()}`)), ms);
    stream.on('data', check);
    check();
  });
}

describe('embedding is announced', { timeout: 240_000 }, () => {
  it('watch: a catch-up and an edit that embed one group each print a note on stderr', async () => {
    const root = workspace(notes(4, 'billing'), { model: { enabled: true } });
    git(root, 'init', '-q');
    const child = spawn(process.execPath, [CLI, 'watch', '--json', '--dir', root], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      await until(
        child.stdout,
        () => stdout,
        (s) => s.includes('"event":"ready"'),
        150_000,
        'no ready line',
      );
      await until(
        child.stderr,
        () => stderr,
        (s) => (s.match(NOTE) ?? []).length === 1,
        10_000,
        'no note for the catch-up',
      );
      writeFileSync(join(root, 'memory/entries/queues-0.md'), '# queues\n\nQueue depth alarm fires at 500 jobs.\n');
      await until(
        child.stdout,
        () => stdout,
        (s) => s.includes('"event":"update"'),
        60_000,
        'no update line',
      );
      await until(
        child.stderr,
        () => stderr,
        (s) => (s.match(NOTE) ?? []).length === 2,
        10_000,
        'no note for the edit',
      );
      // A single group is one note, not a progress series.
      expect(stderr).not.toMatch(/^gitmem: embed \d+\/\d+$/m);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });

  it('recall: embedding more than 16 chunks before the answer prints a note first', () => {
    const root = workspace(notes(40, 'deploys'), { model: { enabled: true } });
    git(root, 'init', '-q');
    try {
      const r = runCli(['recall', 'deploys rule check', '--limit', '3', '--dir', root]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^gitmem: note: embedding 40 new or changed chunks before answering…$/m);
      // --json keeps stderr free of the note (scripts read stdout only).
      writeFileSync(join(root, 'memory/entries/extra.md'), '# extra\n\nOne more deploy rule.\n');
      const j = runCli(['recall', 'deploys', '--json', '--dir', root]);
      expect(j.code, j.stderr).toBe(0);
      expect(j.stderr).not.toMatch(NOTE);
    } finally {
      rmSync(dirname(root), { recursive: true, force: true });
    }
  });
});
