// `gitmem import claude-code|codex [PATH]` as a real process on a real git repository: memories kept
// in temp folders shaped as each host documents its memory folder (docs/integrations.md) become
// entries with their provenance, left uncommitted; the source is never changed; a suspected secret is
// withheld; a second import is a no-op (the dedupe policy); --dry-run writes nothing; the default
// locations are found from HOME / CODEX_HOME. Then the round trip on real corpora: export from one
// repository, import the exported file into a fresh one, and the memories are there.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CORPORA } from '../../support/corpora.js';
import {
  committedFixture,
  git,
  initRepoOnMain,
  noModelEnv,
  requireBuiltCli,
  runCli,
  tempDir,
  write,
} from '../../support/fixtures.js';

const made: string[] = [];
beforeAll(() => requireBuiltCli());
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir` with its bytes. */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p.slice(dir.length + 1), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const TOKEN = `ghp_${'Z9y8X7w6V5'.repeat(4)}`;

/** A Claude Code auto memory folder: the MEMORY.md index and topic files with front-matter. */
function claudeFolder(dir: string): void {
  write(
    dir,
    'MEMORY.md',
    [
      '# Memory index',
      '',
      '- [Testing approach](feedback_testing.md) — integration tests hit a real database',
      '- [Release owner](project_release.md) — who cuts releases',
      '- The staging deploy needs the VPN on.',
      '',
    ].join('\n'),
  );
  write(
    dir,
    'feedback_testing.md',
    '---\nname: Testing approach\ndescription: integration tests must hit a real database\ntype: feedback\n---\n\nIntegration tests must hit a real PostgreSQL database, never mocks: a mocked migration hid a broken index last quarter.\n',
  );
  write(
    dir,
    'project_release.md',
    '---\nname: Release owner\ndescription: who cuts releases\ntype: project\n---\n\nReleases are cut on Thursdays by the on-call engineer from the release branch.\n',
  );
  write(
    dir,
    'reference_ci.md',
    `---\nname: CI token\ndescription: the CI token\ntype: reference\n---\n\nThe CI bot authenticates with ${TOKEN} in the deploy job.\n`,
  );
}

describe('gitmem import', () => {
  it('claude-code: entries with provenance, uncommitted; source unchanged; secret withheld; second run a no-op', () => {
    const root = committedFixture('demo');
    made.push(dirname(root));
    const env = noModelEnv(root);
    const src = join(dirname(root), 'claude-memory');
    claudeFolder(src);
    const source = files(src);
    const head = git(root, 'rev-parse', 'HEAD');

    const dry = runCli(['import', 'claude-code', src, '--dry-run', '--json'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(
      dry
        .json()
        .items.map((i: { status: string }) => i.status)
        .sort(),
    ).toEqual(['withheld', 'would-create', 'would-create', 'would-create']);
    expect(git(root, 'status', '--porcelain')).toBe('');

    const r = runCli(['import', 'claude-code', src, '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    const by = (file: string) => res.items.find((i: { file: string }) => i.file === file);
    expect(by('feedback_testing.md')).toMatchObject({ status: 'created', type: 'preference', line: 6 });
    expect(by('project_release.md')).toMatchObject({ status: 'created', type: 'codebase_knowledge' });
    expect(by('MEMORY.md')).toMatchObject({ status: 'created', line: 5, type: 'learning' });
    expect(by('reference_ci.md')).toMatchObject({ status: 'withheld' });
    expect(res.items).toHaveLength(4); // the index lines are not memories: their topic files are

    const entry = readFileSync(join(root, by('feedback_testing.md').path), 'utf8');
    expect(entry).toContain('type: preference');
    expect(entry).toContain('title: Testing approach');
    expect(entry).toMatch(/source:\n {2}origin: import\n {2}agent: claude-code\n {2}file: feedback_testing.md/);
    expect(entry).toContain('Integration tests must hit a real PostgreSQL database, never mocks');
    for (const text of files(root).values()) expect(text).not.toContain(TOKEN);
    // left for review: nothing committed, only new files
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    const status = git(root, 'status', '--porcelain').trim().split('\n').sort();
    expect(status).toHaveLength(4); // three entries and the daily note
    expect(status.every((l) => l.startsWith('?? memory/'))).toBe(true);
    expect(readFileSync(join(root, res.daily), 'utf8')).toContain('imported 3 memories from Claude Code');
    expect(files(src)).toEqual(source);
    expect(runCli(['validate'], { cwd: root, env }).code).toBe(0);
    // awaiting review, as written by an agent through the import
    const review = runCli(['review', '--json'], { cwd: root, env });
    expect(review.code, review.stderr).toBe(0);
    const pending = review.json().pending as { path: string; via: string }[];
    expect(pending.find((p) => p.path === by('feedback_testing.md').path)).toMatchObject({ via: 'import:claude-code' });

    const after = files(root);
    const again = runCli(['import', 'claude-code', src, '--json'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(
      again
        .json()
        .items.map((i: { status: string }) => i.status)
        .sort(),
    ).toEqual(['duplicate', 'duplicate', 'duplicate', 'withheld']);
    expect(files(root)).toEqual(after);
  });

  it('finds the documented default folders: ~/.claude/projects/<project>/memory and $CODEX_HOME/memories', () => {
    const root = committedFixture('demo');
    made.push(dirname(root));
    const home = join(dirname(root), 'home');
    claudeFolder(join(home, '.claude', 'projects', root.replace(/[^A-Za-z0-9]/g, '-'), 'memory'));
    const codexHome = join(dirname(root), 'codex-home');
    write(
      codexHome,
      'memories/MEMORY.md',
      '# Memory\n\n## Project conventions\n\n- This repo formats with prettier before every commit.\n',
    );
    write(
      codexHome,
      'memories/memory_summary.md',
      'v1\n\n- The user prefers small pull requests with one change each.\n',
    );
    write(codexHome, 'memories/raw_memories.md', '- A raw input that is not a memory yet.\n');
    const env = { ...noModelEnv(root), HOME: home, CODEX_HOME: codexHome };

    const cc = runCli(['import', 'claude-code', '--json'], { cwd: root, env });
    expect(cc.code, cc.stderr).toBe(0);
    expect(cc.json().items.filter((i: { status: string }) => i.status === 'created')).toHaveLength(3);

    const cx = runCli(['import', 'codex'], { cwd: root, env });
    expect(cx.code, cx.stderr).toBe(0);
    expect(cx.stdout).toMatch(/created {3}memory\/entries\/\S+ {2}← MEMORY\.md:5/);
    expect(cx.stdout).toMatch(/← memory_summary\.md:3/);
    expect(cx.stdout).not.toContain('raw_memories');

    const none = runCli(['import', 'codex', join(home, 'nowhere')], { cwd: root, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no Codex memory folder at');
  });

  for (const corpus of ['openclaw-crontinel']) {
    it(`round trip on the ${corpus} corpus: export, then import into a fresh repository, keeps the memories`, () => {
      const a = join(tempDir(), corpus);
      made.push(dirname(a));
      cpSync(join(CORPORA, corpus), a, { recursive: true });
      initRepoOnMain(a);
      const env = noModelEnv(a);
      const exported = runCli(['export', 'agents-md', '--json'], { cwd: a, env });
      expect(exported.code, exported.stderr).toBe(0);
      const ex = exported.json();
      expect(ex.included).toBeGreaterThan(20);

      // the exported file, kept where an agent keeps its memory, imported into a fresh repository
      const src = join(dirname(a), 'codex-memories');
      mkdirSync(src);
      write(src, 'MEMORY.md', readFileSync(join(a, 'AGENTS.md'), 'utf8'));
      const b = join(dirname(a), 'fresh');
      mkdirSync(b);
      git(b, 'init', '-q');
      expect(runCli(['init'], { cwd: b, env }).code).toBe(0);
      const imported = runCli(['import', 'codex', src, '--json'], { cwd: b, env });
      expect(imported.code, imported.stderr).toBe(0);
      const items = imported.json().items as { status: string; path?: string }[];
      // every exported item came back (a repeat within the corpus is a duplicate of its first copy)
      expect(items.length).toBe(ex.included);
      expect(items.filter((i) => i.status === 'withheld' || i.status === 'skipped')).toEqual([]);
      const created = items.filter((i) => i.status === 'created');
      expect(created.length).toBeGreaterThan(20);
      // each item's text is an entry's body, byte for byte
      const memory = readFileSync(join(a, 'MEMORY.md'), 'utf8');
      for (const c of created.slice(0, 10)) {
        const body = readFileSync(join(b, c.path!), 'utf8').split('\n---\n')[1]!.trim();
        expect(memory).toContain(body.split('\n')[0]!);
      }
      // a second import is a no-op
      const before = files(b);
      const again = runCli(['import', 'codex', src, '--json'], { cwd: b, env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.json().items.every((i: { status: string }) => i.status === 'duplicate')).toBe(true);
      expect(files(b)).toEqual(before);
    });
  }
});
