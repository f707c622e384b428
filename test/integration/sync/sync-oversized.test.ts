// Bad input U68 (docs/bad-inputs.md), its second path: `gitmem sync` checkpoints the local memory
// first and pushes it, so a note over limits.maxFileBytes is committed and sent to the team like
// any other, and sync now says so as checkpoint does: `oversized` in its JSON, a warning on stderr.
// Before: it was shared without a word while nobody's recall would read it. Real git: a bare remote
// and two clones (test/support/sync-clones.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const syncClones = useSyncClones();
const big = `# Big\n\n${'- a long line of meeting notes about webhook retries\n'.repeat(100)}`; // 5,307 bytes

describe('U68: sync says which file it committed and sent is not indexed', { timeout: 240_000 }, () => {
  it('the oversized note is committed and pushed, listed under oversized and warned about', () => {
    const c = syncClones();
    const config = JSON.parse(readFileSync(join(c.a, 'gitmem.config.json'), 'utf8'));
    writeFileSync(join(c.a, 'gitmem.config.json'), JSON.stringify({ ...config, limits: { maxFileBytes: 4096 } }));
    git(c.a, 'commit', '-qam', 'smaller file cap');
    writeFileSync(join(c.a, 'memory', 'big.md'), big);
    const r = ok(sync(c.a));
    expect(r.json().oversized).toEqual([{ path: 'memory/big.md', bytes: Buffer.byteLength(big) }]);
    expect(r.json().pushed).toBe(true);
    expect(git(c.remote, 'ls-tree', '-r', '--name-only', 'main')).toContain('memory/big.md');
    expect(r.stderr).toContain(
      'gitmem: warning: 1 committed memory file is over limits.maxFileBytes (4,096 bytes), so recall and validate skip it: memory/big.md (5,307 bytes)',
    );
    // Nothing new to commit: nothing said.
    const again = ok(sync(c.a));
    expect(again.json().oversized).toEqual([]);
    expect(again.stderr).not.toContain('maxFileBytes');
  });
});
