// Bad input G05 (docs/bad-inputs.md). Branch switches under a watching Memory, with REAL git and real chokidar events: `git switch`
// re-indexes exactly the memory files that differ between the two commits (read from git), in one
// update, and recall running throughout answers from either the old or the new branch, never a mix.
import { rmSync, writeFileSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../support/fixtures.js';
import { paths, watchWorkspace, workspace, type Watched } from '../../support/watch.js';

let w: Watched | undefined;
afterEach(async () => {
  await w?.stop();
  if (w) rmSync(dirname(w.root), { recursive: true, force: true });
  w = undefined;
});

const entry = (i: number, word: string) =>
  `---\nid: e-${i}\ntype: learning\n---\nEntry ${i} about ${word} and the shipping queue.\n`;

describe('branch switch with a watching Memory', () => {
  it('re-indexes only the files git changed between the branches; recall is never a mix of both', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`memory/entries/e-${i}.md`] = entry(i, i < 3 ? 'zqmainx' : 'common');
    const root = workspace(files);
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'main');
    git(root, 'switch', '-q', '-c', 'feature');
    git(root, 'rm', '-q', 'memory/entries/e-0.md');
    for (const i of [1, 2]) writeFileSync(join(root, `memory/entries/e-${i}.md`), entry(i, 'zqfeatx'));
    writeFileSync(join(root, 'memory/entries/e-20.md'), entry(20, 'zqfeatx'));
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'feature');
    const featureOid = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'switch', '-q', 'main');
    const mainOid = git(root, 'rev-parse', 'HEAD').trim();

    w = await watchWorkspace(root, { gitdir: join(root, '.git') });
    const mainSet = ['memory/entries/e-0.md', 'memory/entries/e-1.md', 'memory/entries/e-2.md'];
    const featSet = ['memory/entries/e-1.md', 'memory/entries/e-2.md', 'memory/entries/e-20.md'];
    expect((await paths(w.mem, 'zqmainx')).sort()).toEqual(mainSet);

    // Recall in a loop while git switches branches: every answer is one branch's state. One recall
    // asks for both words (any of them matches), so a mix shows inside one answer; two recalls could
    // straddle the switch, each one branch's answer.
    const seen: string[] = [];
    let stop = false;
    const probe = (async () => {
      while (!stop) {
        seen.push((await paths(w!.mem, 'zqmainx zqfeatx')).sort().join(','));
        await setImmediate(); // one turn of the event loop: the watcher's file events run between probes
      }
    })();
    const firstEvent = w.events.length;
    const switched = w.next((e) => e.head?.to === featureOid, 20_000);
    git(root, 'switch', '-q', 'feature');
    const e = await switched;
    await w.mem.settled();
    stop = true;
    await probe;

    expect(e.head).toEqual({ from: mainOid, to: featureOid, files: 4 });
    const changed = [
      'memory/entries/e-0.md',
      'memory/entries/e-1.md',
      'memory/entries/e-2.md',
      'memory/entries/e-20.md',
    ];
    // No update during the switch touched a file git did not change.
    for (const ev of w.events.slice(firstEvent))
      for (const p of [...ev.upserted, ...ev.removed]) expect(changed).toContain(p);
    expect([...e.upserted].sort()).toEqual([
      'memory/entries/e-1.md',
      'memory/entries/e-2.md',
      'memory/entries/e-20.md',
    ]);
    expect(e.removed).toEqual(['memory/entries/e-0.md']);
    const before = mainSet.join(',');
    const after = featSet.join(',');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => s !== before && s !== after)).toEqual([]);
    expect((await paths(w.mem, 'zqfeatx')).sort()).toEqual(featSet);
    expect(await paths(w.mem, 'zqmainx')).toEqual([]);
  }, 60_000);
});
