// The one-shot walk skip (engine/freshness/walk-digest.ts, platform/listing-prefetch.ts) through the built
// CLI as agents call it, in a real git repository: once a recall's walk found every file as the
// index has them, the next recall of an unchanged workspace answers without a walk (`--debug` says
// so); any change a walk would see — a same-size rewrite with its mtime put back, a new file, a
// git checkout — is answered from the new content; the answers equal those of a call that lists
// and walks for itself (GITMEM_LISTING=off); nothing is left in the index folder but the
// digest record; a U+FFFD name beside a not-UTF-8 twin is never mistaken for it (bad input H11).
// find is a Linux tool: elsewhere every call walks.
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_DIGEST_NAME } from '../../../src/engine/freshness/walk-digest.js';
import {
  bareWorkspace,
  git,
  initRepoOnMain,
  noModelEnv,
  okOutput,
  requireBuiltCli,
  runCli,
} from '../../support/fixtures.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
beforeAll(() => requireBuiltCli());

function setUp(): { ws: string; env: Record<string, string> } {
  const { root, ws } = bareWorkspace();
  roots.push(root);
  const entry = (id: string, words: string) =>
    `---\nid: ${id}\ntype: decision\ntitle: ${id}\ncreated: 2026-01-01\n---\n\n${words}\n`;
  writeFileSync(join(ws, 'memory', 'entries', 'a.md'), entry('a', 'webhook retries back off'));
  writeFileSync(join(ws, 'memory', 'entries', 'b.md'), entry('b', 'database pool sizing'));
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- deploys go out on Tuesdays\n');
  initRepoOnMain(ws);
  // Every file older than the racy window, so the first walk records their stat keys.
  const old = new Date(Date.now() - 3_600_000);
  for (const f of ['entries/a.md', 'entries/b.md', 'MEMORY.md']) utimesSync(join(ws, 'memory', f), old, old);
  // Listed whatever its size (by default only an index of 4,000 chunks or more is: cli/entry.ts).
  return { ws, env: { ...noModelEnv(root), GITMEM_LISTING: 'on' } };
}

function recall(ws: string, env: Record<string, string>, query: string, extraEnv: Record<string, string> = {}) {
  const r = runCli(['--dir', ws, 'recall', '--mode', 'keyword', '--json', '--debug', '--no-host', '--', query], {
    env: { ...env, ...extraEnv },
  });
  const out = okOutput(r) as { results: { path: string; snippet?: string }[] };
  return { paths: out.results.map((x) => x.path), skipped: /no walk: the workspace lists as it did/.test(r.stderr) };
}

describe.runIf(process.platform === 'linux')('one-shot recall skips the walk of an unchanged workspace', () => {
  it('skips once a clean walk recorded the listing, and walks again after every change', () => {
    const { ws, env } = setUp();
    const state = join(ws, '.git', 'gitmem');
    okOutput(runCli(['--dir', ws, 'index', '--json'], { env }));
    // The first recall walks (the index was written by `index`, which takes no listing) and records it.
    expect(recall(ws, env, 'webhook')).toEqual({ paths: ['memory/entries/a.md'], skipped: false });
    const record = JSON.parse(readFileSync(join(state, WALK_DIGEST_NAME), 'utf8')) as Record<string, string>;
    expect(Object.keys(record).sort()).toEqual(['fingerprint', 'listing', 'manifest']);
    expect(recall(ws, env, 'webhook')).toEqual({ paths: ['memory/entries/a.md'], skipped: true });

    // A same-size rewrite with the old mtime put back: only ctime tells, and the listing has it.
    const a = join(ws, 'memory', 'entries', 'a.md');
    const before = statSync(a);
    const text = readFileSync(a, 'utf8');
    const next = text.replace('webhook retries', 'zeppelin hovers');
    expect(Buffer.byteLength(next)).toBe(Buffer.byteLength(text));
    writeFileSync(a, next);
    utimesSync(a, before.atime, before.mtime);
    expect(recall(ws, env, 'zeppelin')).toEqual({ paths: ['memory/entries/a.md'], skipped: false });
    expect(recall(ws, env, 'webhook').paths).toEqual([]);

    // A new file.
    writeFileSync(join(ws, 'memory', 'entries', 'c.md'), '---\nid: c\ntype: decision\ntitle: c\n---\n\nkestrel\n');
    expect(recall(ws, env, 'kestrel')).toEqual({ paths: ['memory/entries/c.md'], skipped: false });

    // A git checkout of another branch brings other content back.
    git(ws, 'checkout', '-q', '-b', 'other');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'other');
    git(ws, 'checkout', '-q', 'main');
    expect(recall(ws, env, 'kestrel').paths).toEqual([]);
    expect(recall(ws, env, 'webhook')).toEqual({ paths: ['memory/entries/a.md'], skipped: false });

    // Only the digest record is new in the index folder: the listing's own file was unlinked at once.
    expect(readdirSync(state).filter((n) => n.startsWith('.listing'))).toEqual([]);
  });

  it('answers as a call that walks for itself does, query by query', () => {
    const { ws, env } = setUp();
    okOutput(runCli(['--dir', ws, 'index', '--json'], { env }));
    recall(ws, env, 'deploys'); // records the listing
    for (const q of ['webhook', 'database pool', 'deploys Tuesdays', 'nothing-matches-this']) {
      const skipped = recall(ws, env, q);
      const walked = recall(ws, env, q, { GITMEM_LISTING: 'off' });
      expect(skipped.skipped).toBe(true);
      expect(walked.skipped).toBe(false);
      expect(skipped.paths).toEqual(walked.paths);
    }
  });

  it('files named with U+FFFD beside same-size ones whose names are not UTF-8: their edits are seen', () => {
    const { ws, env } = setUp();
    const dir = join(ws, 'memory');
    const bad = (n: string) => Buffer.concat([Buffer.from(`${dir}/${n}-`), Buffer.from([0xff]), Buffer.from('.md')]);
    const old = new Date(Date.now() - 7_200_000);
    // Both orders of creation, so that in the folder's listing order some not-UTF-8 name comes after
    // its U+FFFD twin (which one wins a name collision depends on that order).
    const names = ['a', 'b', 'c', 'd'];
    for (const [i, n] of names.entries()) {
      const fffd = join(dir, `${n}-\uFFFD.md`);
      if (i % 2) writeFileSync(bad(n), 'x'.repeat(23) + '\n');
      writeFileSync(fffd, 'The gizmo uses foxtrot.\n');
      if (!(i % 2)) writeFileSync(bad(n), 'x'.repeat(23) + '\n');
      utimesSync(fffd, old, old);
      utimesSync(bad(n), old, old);
    }
    okOutput(runCli(['--dir', ws, 'index', '--json'], { env }));
    const all = names.map((n) => `memory/${n}-\uFFFD.md`);
    expect(recall(ws, env, 'foxtrot').paths.sort()).toEqual(all);
    recall(ws, env, 'foxtrot');
    // The edits, then their mtimes put an hour back: past the racy window (core/ports.ts RACY_MS), so
    // the keys the next walk takes are trusted and recorded, as they would be 2 s later (the new
    // size and ctime still tell the edit from the old text).
    const aged = new Date(Date.now() - 3_600_000);
    for (const n of names) {
      writeFileSync(join(dir, `${n}-\uFFFD.md`), 'The gizmo now uses golf.\n');
      utimesSync(join(dir, `${n}-\uFFFD.md`), aged, aged);
    }
    for (let i = 0; i < 3; i++) expect(recall(ws, env, 'golf').paths.sort()).toEqual(all);
  });

  it('by default a workspace this small is not listed: every call walks, and no digest is recorded', () => {
    const { ws, env } = setUp();
    const auto = { ...env, GITMEM_LISTING: 'auto' };
    okOutput(runCli(['--dir', ws, 'index', '--json'], { env: auto }));
    for (let i = 0; i < 3; i++)
      expect(recall(ws, auto, 'webhook')).toEqual({ paths: ['memory/entries/a.md'], skipped: false });
    expect(existsSync(join(ws, '.git', 'gitmem', WALK_DIGEST_NAME))).toBe(false);
  });

  it('a symlink in the workspace: every call walks (a link target can change unseen by the listing)', () => {
    const { ws, env } = setUp();
    okOutput(runCli(['--dir', ws, 'index', '--json'], { env }));
    // A link at a path that is not memory: the walk does not index it; the listing still refuses to vouch.
    symlinkSync(join(ws, 'memory', 'MEMORY.md'), join(ws, 'link-to-memory.md'));
    for (let i = 0; i < 3; i++) expect(recall(ws, env, 'webhook').skipped).toBe(false);
  });
});
