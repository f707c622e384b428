// Bad inputs T06 and T11 (docs/bad-inputs.md): `promote` and `state set --commit` commit exactly what they
// wrote. A pending, unreviewed bullet in MEMORY.md makes promote refuse (nothing written, nothing
// committed); once it is committed, the printed diff is the committed diff. `state set --commit`
// commits CURRENT_STATE.md only, leaving other pending memory changes alone. U35: `memory_forget`
// with commit commits its one status line, and refuses while the entry holds unreviewed edits.
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, requireBuiltCli, initRepoOnMain } from '../../support/fixtures.js';
import { writeRepeatedLesson } from '../../support/dream-workspace.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const ENV = {
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GITMEM_MODEL_DIR: '/nonexistent-model',
};
let root: string;
const cli = (args: string[]) => runCli([...args, '--dir', root], { env: ENV });

beforeAll(() => {
  requireBuiltCli();
  root = copyFixture('demo');
  initRepoOnMain(root);
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('commands commit exactly what they wrote', () => {
  it('promote refuses while MEMORY.md holds an unreviewed bullet, then prints exactly what it commits', () => {
    writeRepeatedLesson(root);
    const d = cli(['--json', 'dream']);
    expect(d.code, d.stderr).toBe(0);
    const promo = (d.json().proposals as Array<{ id: string; kind: string }>).find((p) => p.kind === 'promotion')!;
    expect(promo).toBeDefined();

    appendFileSync(join(root, 'memory/MEMORY.md'), '- PENDING: an unreviewed bullet the user is still writing\n');
    const before = readFileSync(join(root, 'memory/MEMORY.md'), 'utf8');
    const head = git(root, 'rev-parse', 'HEAD');
    const refused = cli(['--json', 'promote', promo.id]);
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatchObject({
      code: 'git.uncommitted-edits',
      data: { paths: ['memory/MEMORY.md'] },
    });
    expect(readFileSync(join(root, 'memory/MEMORY.md'), 'utf8')).toBe(before);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);

    // The user reviews and commits their bullet; now promote commits only its own change.
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'my bullet and notes');
    const p = cli(['promote', promo.id]);
    expect(p.code, p.stderr).toBe(0);
    const printed = p.stdout.slice(0, p.stdout.lastIndexOf('\n', p.stdout.length - 2) + 1);
    const committed = git(root, 'show', '--format=', '-U3', 'HEAD', '--', 'memory/MEMORY.md', 'memory/DREAMS.md');
    const added = (s: string) =>
      s
        .split('\n')
        .filter((l) => /^[+-][^+-]/.test(l))
        .sort();
    expect(added(printed)).toEqual(added(committed));
    expect(added(printed).some((l) => l.includes('PENDING'))).toBe(false);
    expect(git(root, 'status', '--porcelain')).toBe('');
  });

  it('T11: promoting an already promoted proposal is exit 1, not a usage error', () => {
    const d = readFileSync(join(root, 'memory/DREAMS.md'), 'utf8');
    const id =
      /(d-[0-9a-f]{8})[^\n]*\n(?:[^\n]*\n)*?[^\n]*status: promoted/.exec(d)?.[1] ?? /(d-[0-9a-f]{8})/.exec(d)![1]!;
    const r = cli(['promote', id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already (promoted|rejected)/);
  });

  it('state set --commit commits CURRENT_STATE.md only; other pending memory stays uncommitted', () => {
    expect(cli(['remember', 'Pending entry nobody reviewed about cache keys']).code).toBe(0);
    const r = cli(['--json', 'state', 'set', '--step', 'write the migration', '--commit']);
    expect(r.code, r.stderr).toBe(0);
    const files = git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n');
    expect(files).toEqual(['memory/CURRENT_STATE.md']);
    expect(git(root, 'status', '--porcelain')).toMatch(/\?\? memory\/entries\//);
  });
});

describe('memory_forget with commit (U35)', () => {
  let ws: string;
  let mcp: McpSession;
  beforeAll(async () => {
    ws = copyFixture('demo');
    initRepoOnMain(ws);
    mcp = await startMcp(ws, { GITMEM_MODEL_DIR: '/nonexistent-model', GITMEM_NO_HOST: '1' });
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dirname(ws), { recursive: true, force: true });
  });
  const entry = 'memory/entries/2026-11-25-prefer-small-prs.md';

  it('commits the one status line only; the user pending MEMORY.md bullet stays uncommitted', async () => {
    appendFileSync(join(ws, 'memory/MEMORY.md'), '- PENDING: a bullet nobody reviewed yet\n');
    const r = await mcp.call('memory_forget', { id: entry, commit: true });
    expect(r.isError, r.text).toBe(false);
    expect(git(ws, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual([entry]);
    const diff = git(ws, 'show', '--format=', '-U0', 'HEAD').split('\n');
    expect(diff.filter((l) => /^[+-](?![+-])/.test(l))).toEqual([
      expect.stringMatching(/^-status: /),
      '+status: archived',
    ]);
    expect(git(ws, 'status', '--porcelain')).toBe(' M memory/MEMORY.md\n');
  });

  it('refuses (nothing written, nothing committed) when the entry itself holds unreviewed edits', async () => {
    const other = 'memory/entries/2026-11-20-postgres-connection-pool.md';
    appendFileSync(join(ws, other), '\nPENDING: an unreviewed line in the entry\n');
    const before = readFileSync(join(ws, other), 'utf8');
    const head = git(ws, 'rev-parse', 'HEAD');
    const r = await mcp.call('memory_forget', { id: other, commit: true });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/git\.uncommitted-edits/);
    // U41: the hint names the MCP argument, not the CLI option.
    expect(r.text).toMatch(/commit: false/);
    expect(r.text).not.toMatch(/--no-commit/);
    expect(readFileSync(join(ws, other), 'utf8')).toBe(before);
    expect(git(ws, 'rev-parse', 'HEAD')).toBe(head);
  });
});
