// Bad input R172 (docs/bad-inputs.md): when git cannot fetch or push, `gitmem sync` says git's own
// reason, not the generic advice git prints after it. A remote path that is no repository: git says
// "does not appear to be a git repository", then "Please make sure you have the correct access
// rights / and the repository exists"; the message kept only the last two lines, so a mistyped
// path read as a permissions problem. Real git: two clones of a bare remote (test/support/sync-clones.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../support/fixtures.js';
import { sync, useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();

describe("sync names git's reason for a failed fetch (R172)", { timeout: 120_000 }, () => {
  it('a remote path that is not a repository', () => {
    const { a, base } = setup();
    const missing = join(base, 'no-such-remote.git');
    git(a, 'remote', 'set-url', 'origin', missing);
    const r = sync(a);
    expect(r.code).toBe(1);
    const message = JSON.parse(r.stdout).error.message as string;
    expect(message).toContain('does not appear to be a git repository');
    expect(message).toContain(missing);
    expect(r.stderr).toContain('does not appear to be a git repository');
  });
});
