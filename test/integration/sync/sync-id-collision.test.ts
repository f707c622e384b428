// Bad input G14 (docs/bad-inputs.md): two different memories that got one id in two clones. An id is
// the date and the title, so Ann's "Retry policy" (webhooks) and Ben's "Retry policy" (queue jobs)
// remembered on one day are the same file with different text. Once the created time no longer
// stopped the merge (G10), the driver kept both texts: two memories silently became one entry. Real
// git: a bare remote and two clones with gitmem's merge rules and driver (test/support/sync-clones.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();

const remember = (dir: string, ...args: string[]) =>
  ok(runCli(['remember', ...args, '--json', '--dir', dir])).json() as { id: string };

describe('two memories with one id from two clones (G14)', { timeout: 240_000 }, () => {
  it('stop the sync with a way to keep both; following it shares both as two entries', () => {
    const { a, b } = syncClones();
    const ann = remember(a, '--title', 'Retry policy', 'Webhooks retry 3 times on a 5xx');
    const ben = remember(b, '--title', 'Retry policy', 'Queue jobs retry forever with backoff');
    expect(ben.id).toBe(ann.id);
    const file = `memory/entries/${ann.id}.md`;
    ok(sync(a));
    const head = git(b, 'rev-parse', 'HEAD');
    const r = sync(b);
    expect(r.code, r.stdout).toBe(5);
    const error = r.json().error;
    expect(error.code).toBe('git.conflict');
    expect(error.data.files).toEqual([file]);
    expect(error.data.addedInBoth).toEqual([file]);
    expect(error.hint).toContain('added in both clones with different text');
    expect(error.hint).toContain(`gitmem mv ${file}`);
    expect(error.hint).toContain('id:');
    // Nothing changed but Ben's checkpoint; his text is his alone.
    expect(git(b, 'rev-parse', 'HEAD~1')).toBe(head);
    const bens = readFileSync(join(b, file), 'utf8');
    expect(bens).toContain('Queue jobs retry forever');
    expect(bens).not.toContain('Webhooks');

    // The hint's way to keep both: a new name and the same id in the file, then sync.
    const renamed = `${ann.id}-queue`;
    ok(runCli(['mv', file, `memory/entries/${renamed}.md`, '--dir', b]));
    const moved = join(b, 'memory', 'entries', `${renamed}.md`);
    writeFileSync(moved, readFileSync(moved, 'utf8').replace(`id: ${ann.id}\n`, `id: ${renamed}\n`));
    ok(sync(b));
    ok(sync(a));
    for (const dir of [a, b]) {
      const names = readdirSync(join(dir, 'memory', 'entries')).filter((n) => n.endsWith('.md'));
      expect(names.sort()).toEqual([`${ann.id}.md`, `${renamed}.md`].sort());
      expect(readFileSync(join(dir, file), 'utf8')).not.toContain('Queue jobs');
      expect(readFileSync(join(dir, file), 'utf8')).toContain('Webhooks retry 3 times');
      expect(readFileSync(join(dir, 'memory', 'entries', `${renamed}.md`), 'utf8')).toContain('Queue jobs');
      ok(runCli(['validate', '--dir', dir]));
      expect(git(dir, 'status', '--porcelain')).toBe('');
    }
  });
});
