// Bad input G10 (docs/bad-inputs.md): the same memory remembered in two clones. The id comes from the
// date and the title, so Ann and Ben remembering the same decision on one day write the same file,
// differing only in the `created:` second each wrote it at. Before, the merge of that add/add stopped
// on the time alone (exit 5) and held back everything else Ben had to share. Real git: a bare remote
// and two clones with gitmem's merge rules and driver (test/support/sync-clones.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

const remember = (dir: string, ...args: string[]) =>
  ok(runCli(['remember', ...args, '--json', '--dir', dir])).json() as { id: string; path: string };

describe('the same entry remembered in two clones merges into one (G10)', { timeout: 240_000 }, () => {
  it('one file with the earlier created time, the other entries shared, validate clean', () => {
    const { a, b } = syncClones();
    const text = 'Use Postgres advisory locks for the job queue';
    const ann = remember(a, '--type', 'decision', text);
    const ben = remember(b, '--type', 'decision', text);
    expect(ben.id).toBe(ann.id);
    const file = join('memory', 'entries', `${ann.id}.md`);
    // Ben wrote it a minute later (the CLI runs may fall in the same second; the test must not).
    const annText = readFileSync(join(a, file), 'utf8');
    const annCreated = /^created: (.*)$/m.exec(annText)![1]!;
    const later = new Date(Date.parse(annCreated) + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    writeFileSync(join(b, file), readFileSync(join(b, file), 'utf8').replace(/^created: .*$/m, `created: ${later}`));
    const other = remember(b, '--type', 'warning', 'Webhooks retry three times on a 5xx');

    ok(sync(a));
    const r = ok(sync(b)).json();
    expect(r.strategy).toBe('merge');
    expect(r.pushed).toBe(true);
    ok(sync(a));

    for (const dir of [a, b]) {
      const names = readdirSync(join(dir, 'memory', 'entries')).filter((n) => n.endsWith('.md'));
      expect(names.sort()).toEqual([`${ann.id}.md`, `${other.id}.md`].sort());
      const merged = readFileSync(join(dir, file), 'utf8');
      expect(merged).toBe(annText);
      expect(merged).not.toMatch(/<<<<<<<|>>>>>>>/);
      expect(git(dir, 'status', '--porcelain')).toBe('');
      ok(runCli(['validate', '--dir', dir]));
    }
    // The merged index answers for Ben's entry in Ann's clone.
    const hits = ok(runCli(['recall', 'webhooks retry 5xx', '--json', '--dir', a])).json();
    expect(JSON.stringify(hits)).toContain(other.id);
    // Ben's merge commit holds memory files only.
    expect(git(b, 'log', '-1', '--format=%s')).toMatch(/^memory: sync merge/);
    const files = git(b, 'diff', '--name-only', 'HEAD~1', 'HEAD').split('\n').filter(Boolean);
    expect(files.every((f) => f.startsWith('memory/'))).toBe(true);
  });
});
