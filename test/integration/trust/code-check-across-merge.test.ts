// Bad input R190 (docs/bad-inputs.md): the stale-code check ("the code it cites changed: N commits
// since") measures from the commit that wrote the memory's lines. Ann remembers an entry citing
// `src/app.js` and syncs; meanwhile Ben changes `src/app.js`, remembers another entry and syncs, so
// `gitmem sync` merges (Ann's commit is the merge's second parent). Ben's change came after the
// state of the code Ann described, so in both clones her entry must read `code-changed`, one commit
// since her commit. Before, the memory's commit was found by a linear walk of the memory file's log,
// which stopped at the merge: the merge stood in as the writing commit, Ben's change was behind it
// and the entry read `fresh`. Real git: a bare remote and two clones (test/support/sync-clones.ts),
// the CLI as users run it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { git, okOutput, runCli, write } from '../../support/fixtures.js';
import { useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();
const cli = (dir: string, ...args: string[]) => okOutput(runCli([...args, '--json', '--dir', dir]));
const rev = (dir: string, r: string) =>
  spawnSync('git', ['rev-parse', r], { cwd: dir, encoding: 'utf8' }).stdout.trim();
type Hit = { path: string; code?: { path: string; status: string; commits?: number; since?: string }[] };
const hit = (dir: string, query: string, path: string) =>
  (cli(dir, 'recall', query, '--mode', 'keyword').results as Hit[]).find((r) => r.path === path);

describe('the code check across a sync merge (R190)', { timeout: 240_000 }, () => {
  it("counts a change the other clone made to the cited file after the memory's commit", () => {
    const { a, b } = setup();
    write(a, 'src/app.js', 'export function start() {\n  return 1;\n}\n');
    git(a, 'add', 'src/app.js');
    git(a, 'commit', '-qm', 'app: start');
    cli(a, 'sync');
    cli(b, 'sync');
    expect(rev(b, 'HEAD')).toBe(rev(a, 'HEAD'));

    // Ann describes the code as it is, and shares it.
    const ann = cli(a, 'remember', 'zqstartx start returns one in src/app.js', '--file', 'src/app.js');
    cli(a, 'sync');
    const annCommit = rev(a, 'HEAD');
    // Meanwhile Ben changes the code, remembers something else, and syncs: a merge.
    write(b, 'src/app.js', 'export function start() {\n  return 2;\n}\n');
    git(b, 'commit', '-qam', 'app: start returns two');
    const benChange = rev(b, 'HEAD');
    cli(b, 'remember', 'zqbenx caches expire after ten minutes');
    expect(cli(b, 'sync').strategy).not.toBe('fast-forward');
    const merge = rev(b, 'HEAD');
    expect(spawnSync('git', ['rev-parse', `${merge}^2`], { cwd: b, encoding: 'utf8' }).stdout.trim()).toBe(annCommit);
    expect(spawnSync('git', ['merge-base', '--is-ancestor', benChange, annCommit], { cwd: b }).status).toBe(1);

    const expected = [{ path: 'src/app.js', status: 'code-changed', commits: 1, changedLines: 2, since: annCommit }];
    expect(hit(b, 'zqstartx', ann.path)?.code).toEqual(expected);
    // Ann's clone fast-forwards to Ben's merge: the same answer.
    cli(a, 'sync');
    expect(rev(a, 'HEAD')).toBe(merge);
    expect(hit(a, 'zqstartx', ann.path)?.code).toEqual(expected);
  });
});
