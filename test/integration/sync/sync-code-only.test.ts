// A `gitmem sync` whose incoming commits change no memory file (a teammate's code) leaves the index as
// it is: no re-index run, no incoming checks, the code fast-forwarded in (issue 46: a sync touches
// only what the merge changed). Real git: two clones of a bare remote; the real CLI from dist/.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, okOutput, runCli, write } from '../../support/fixtures.js';
import { sync, useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();

describe('gitmem sync: incoming commits without memory', { timeout: 240_000 }, () => {
  it('brings the code in and runs no re-index; memory that comes in later is re-indexed', () => {
    const { a, b } = setup();
    okOutput(runCli(['index', '--dir', b]));
    const manifest = join(b, '.git', 'gitmem', 'manifest.json');
    const before = { text: readFileSync(manifest, 'utf8'), mtime: statSync(manifest).mtimeMs };
    write(a, 'app.js', 'export const version = 2;\n');
    git(a, 'commit', '-qam', 'code: version 2');
    git(a, 'push', '-q', 'origin', 'main');
    const r = okOutput(sync(b));
    expect(r.strategy).toBe('fast-forward');
    expect(r.commitsIn.map((c: { summary: string }) => c.summary)).toEqual(['code: version 2']);
    expect(r.memoryDiff.changes).toEqual([]);
    expect(r.reindexed).toBeNull();
    expect(r.incomingFindings).toEqual([]);
    expect(readFileSync(join(b, 'app.js'), 'utf8')).toBe('export const version = 2;\n');
    expect(readFileSync(manifest, 'utf8')).toBe(before.text);
    expect(statSync(manifest).mtimeMs).toBe(before.mtime);
    // Memory that comes in is re-indexed as before.
    okOutput(runCli(['append', 'the deploy window moved to friday', '--dir', a]));
    okOutput(sync(a));
    const r2 = okOutput(sync(b));
    expect(r2.reindexed.upserted).toBeGreaterThan(0);
  });
});
